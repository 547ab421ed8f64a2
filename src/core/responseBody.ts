import { createParser } from 'eventsource-parser';
import { OzError } from './errors.js';
import type { Format } from './requestOptions.js';
import { tryParseJson } from './tryParseJson.js';
import { wireOfContentType } from './wireMediaTypes.js';
import { parseYaml } from './yaml.js';

/**
 * The data of a successful answer, read as its `Content-Type` says (the wire the service actually answered on):
 * json and yaml parsed, markdown and text (and any other text type) as a string. Without a `Content-Type`, the
 * requested wire decides. An MCP answer sent as one SSE `message` event gives that event's JSON.
 */
export async function decodeBody(text: string, contentType: string | null, requested: Format): Promise<unknown> {
  // Most answers, without parsing their media type.
  if (contentType === 'application/json' || contentType === 'application/json; charset=utf-8') return text.trim() === '' ? undefined : jsonAnswer(text);
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') return jsonAnswer(lastEventData(text));
  const wire = wireOfContentType(contentType) ?? (type ? 'text' : requested);
  if (wire === 'markdown' || wire === 'text') return text;
  if (text.trim() === '') return undefined;
  if (wire === 'yaml') {
    try {
      return await parseYaml(text);
    } catch (cause) {
      throw new OzError('The answer is not valid YAML.', { cause });
    }
  }
  return jsonAnswer(text);
}

/** A success answer's JSON; a broken one is the typed {@link OzError}, never a bare `SyntaxError`. */
function jsonAnswer(text: string): unknown {
  const parsed = tryParseJson(text);
  if (!parsed.ok) throw new OzError('The answer is not valid JSON.', { cause: parsed.error });
  return parsed.value;
}

function lastEventData(text: string): string {
  let data = '';
  const parser = createParser({ onEvent: (event) => (data = event.data) });
  parser.feed(text);
  parser.reset({ consume: true });
  return data;
}
