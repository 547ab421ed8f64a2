import { createParser } from 'eventsource-parser';

/** The `data` of the last event of a whole server-sent event body (an MCP answer sent as one `message` event). */
export function lastEventData(text: string): string {
  let data = '';
  const parser = createParser({ onEvent: (event) => (data = event.data) });
  parser.feed(text);
  parser.reset({ consume: true });
  return data;
}
