import { OzError } from './errors/errors.js';
import { isServiceJson, jsonAnswer, jsonBody } from './jsonBody.js';
import type { Format } from './requestOptions.js';
import { wireOfContentType } from './wireOfContentType.js';
import { parseYaml } from './yaml.js';

/** The `data` of the last event of a whole server-sent event body (see `lastEventData.ts`). */
export type EventData = (text: string) => string | Promise<string>;

/**
 * The data of a successful answer, read as its `Content-Type` says (the wire the service actually answered on):
 * json and yaml parsed, markdown and text (and any other text type) as a string. Without a `Content-Type`, the
 * requested wire decides. An MCP answer sent as one SSE `message` event gives that event's JSON (its data read by
 * `eventData`, given by the layer above: see `CallFeatures`).
 *
 * A JSON answer (most answers) is decoded at once, without a promise (a broken one throws); any other answer gives
 * a promise of its data. Await the result either way. The transport decodes the service's JSON itself
 * (jsonBody.ts) and comes here for any other answer, so a bundle loads this with the call path's rarely used parts.
 */
export function decodeBody(text: string, contentType: string | null, requested: Format, eventData?: EventData): unknown | Promise<unknown> {
  // Most answers, without parsing their media type.
  if (isServiceJson(contentType)) return jsonBody(text);
  return decodeOther(text, contentType, requested, eventData);
}

async function decodeOther(text: string, contentType: string | null, requested: Format, eventData: EventData | undefined): Promise<unknown> {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') {
    if (eventData === undefined) throw new OzError('The answer is a server-sent event stream, which this client was made without a way to read.');
    return jsonAnswer(await eventData(text));
  }
  const wire = wireOfContentType(contentType) ?? (type ? 'text' : requested);
  if (wire === 'markdown' || wire === 'text') return text;
  if (wire !== 'yaml') return jsonBody(text);
  if (text.trim() === '') return undefined;
  try {
    return await parseYaml(text);
  } catch (cause) {
    throw new OzError('The answer is not valid YAML.', { cause });
  }
}
