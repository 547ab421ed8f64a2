import { describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { lastEventData } from '../../../src/core/streams/lastEventData.js';

/** What the SDK read with eventsource-parser before: the last event, an unfinished one at the end discarded. */
function withEventsourceParser(text: string): string {
  let data = '';
  const parser = createParser({ onEvent: (event) => (data = event.data) });
  parser.feed(text);
  parser.reset({ consume: true });
  return data;
}

const bodies: Record<string, string> = {
  'one message event': 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
  'the last of several events': 'data: {"a":1}\n\nevent: message\ndata: {"a":2}\n\n',
  'an event left unfinished at the end (no blank line)': 'event: message\ndata: {"a":3}',
  'an event ended by one line end only': 'data: {"a":4}\n',
  'CRLF line ends': 'event: message\r\ndata: {"a":5}\r\n\r\n',
  'a trailing CR': 'data: {"a":6}\r',
  'multi-line data': 'data: {"a":\ndata: 7}\n\n',
  'comments and an id around the data': ': ping\nid: 9\ndata: {"a":8}\n: bye\n\n',
  'no event at all': ': ping\n\n',
  'an empty body': '',
};

describe('lastEventData: the data of the last event of a whole SSE answer (an MCP answer sent as one event)', () => {
  for (const [name, body] of Object.entries(bodies)) {
    it(`${name}: as eventsource-parser read it`, () => {
      expect(lastEventData(body)).toBe(withEventsourceParser(body));
    });
  }

  it('takes the last complete event; one left unfinished at the end is discarded, as the spec says', () => {
    expect(lastEventData(bodies['the last of several events']!)).toBe('{"a":2}');
    expect(lastEventData('data: {"a":1}\n\ndata: {"a":3}')).toBe('{"a":1}');
    expect(lastEventData(bodies['an event left unfinished at the end (no blank line)']!)).toBe('');
    expect(lastEventData(bodies['no event at all']!)).toBe('');
  });
});
