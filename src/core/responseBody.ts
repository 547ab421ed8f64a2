import { createParser } from 'eventsource-parser';
import { OzError } from './errors.js';
import type { Format } from './requestOptions.js';
import { wireOfContentType } from './wire.js';
import { parseYaml } from './yaml.js';

/**
 * The data of a successful answer, read as its `Content-Type` says (the wire the service actually answered on):
 * json and yaml parsed, markdown and text (and any other text type) as a string. Without a `Content-Type`, the
 * requested wire decides. An MCP answer sent as one SSE `message` event gives that event's JSON.
 */
export async function decodeBody(text: string, contentType: string | null, requested: Format): Promise<unknown> {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') return parseJson(lastEventData(text));
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
  return parseJson(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new OzError('The answer is not valid JSON.', { cause });
  }
}

function lastEventData(text: string): string {
  let data = '';
  const parser = createParser({ onEvent: (event) => (data = event.data) });
  parser.feed(text);
  parser.reset({ consume: true });
  return data;
}
