import { OzError } from '../errors/errors.js';
import { lastEventData } from '../streams/lastEventData.js';
import { isServiceJson, jsonAnswer, jsonBody } from './serviceJson.js';
import type { Format } from './requestOptions.js';
import { wireOfContentType } from './wire.js';
import { yamlCodec } from './yaml.js';

/**
 * The data of a successful answer, read as its `Content-Type` says (the wire the service actually answered on):
 * json and yaml parsed, markdown and text (and any other text type) as a string. Without a `Content-Type`, the
 * requested wire decides. An MCP answer sent as one SSE `message` event gives that event's JSON (the data of its
 * last event).
 *
 * A JSON answer (most answers) is decoded at once, without a promise (a broken one throws); any other answer gives
 * a promise of its data. Await the result either way. The transport decodes the service's JSON itself
 * (decodeAnswer.ts) and comes here for any other answer.
 */
export function decodeBody(text: string, contentType: string | null, requested: Format): unknown | Promise<unknown> {
  // Most answers, without parsing their media type.
  if (isServiceJson(contentType)) return jsonBody(text);
  return decodeOther(text, contentType, requested);
}

async function decodeOther(text: string, contentType: string | null, requested: Format): Promise<unknown> {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') return jsonAnswer(lastEventData(text));
  const wire = wireOfContentType(contentType) ?? (type ? 'text' : requested);
  if (wire === 'markdown' || wire === 'text') return text;
  if (wire !== 'yaml') return jsonBody(text);
  if (text.trim() === '') return undefined;
  const yaml = await yamlCodec();
  try {
    return yaml.parse(text);
  } catch (cause) {
    throw new OzError('The answer is not valid YAML.', { cause });
  }
}
