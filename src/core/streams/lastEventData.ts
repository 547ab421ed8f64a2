import { SseParser } from './sseParser.js';

/**
 * The `data` of the last event of a whole server-sent event body (an MCP answer sent as one `message` event). An
 * event left unfinished at the body's end (no blank line after it) is discarded, as the spec says.
 */
export function lastEventData(text: string): string {
  let data = '';
  new SseParser({ onEvent: (_event, eventData) => (data = eventData) }).feed(text);
  return data;
}
