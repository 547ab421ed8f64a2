/**
 * Parity reads an event stream as the client does (the one reader of the project, src/core/streams/sseParser.ts):
 * a table of the standard cases, each with LF, CR and CRLF line ends, sent as bytes through parity's `send()`.
 */
import { describe, expect, it } from 'vitest';
import { send, type ParityEndpoint, type ReadEvent } from '../../../src/testing/parity/exchange.js';
import { compareAnswers } from '../../../src/testing/parity/shapeDiff.js';

const m = (data: string, event = 'message'): ReadEvent => ({ event, data });

// [case, the stream written with \n as its line end, the events the client reads]
const STANDARD: ReadonlyArray<readonly [string, string, readonly ReadEvent[]]> = [
  ['one event', 'data: a\n\n', [m('a')]],
  ['a named event', 'event: tick\ndata: 1\n\n', [m('1', 'tick')]],
  ['an empty event: field', 'event:\ndata: x\n\n', [m('x')]],
  ['an event name with a trailing space', 'event: tick \ndata: x\n\n', [m('x', 'tick ')]],
  ['a bare data line', 'data\n\n', [m('')]],
  ['a bare data line among others', 'data: a\ndata\ndata: b\n\n', [m('a\n\nb')]],
  ['multi-line data', 'data: a\ndata: b\ndata: c\n\n', [m('a\nb\nc')]],
  ['no space after the colon', 'data:a\n\n', [m('a')]],
  ['two spaces after the colon', 'data:  a\n\n', [m(' a')]],
  ['a colon in the data', 'data: a: b\n\n', [m('a: b')]],
  ['an event never closed', 'data: a\n\ndata: b', [m('a')]],
  ['an event whose last line ended but no blank line came', 'data: a\n\ndata: b\n', [m('a')]],
  ['comments', ': ping\ndata: a\n\n: bye\n\n', [m('a')]],
  ['id and retry fields', 'id: 7\nretry: 100\ndata: a\n\nid: 8\ndata: b\n\n', [m('a'), m('b')]],
  ['an unknown field', 'foo: bar\ndata: a\n\n', [m('a')]],
  ['an event without data', 'event: x\n\n', []],
  ['a name kept to its own event only', 'event: x\ndata: 1\n\ndata: 2\n\n', [m('1', 'x'), m('2')]],
  ['blank lines before the first event', '\n\n\ndata: a\n\n', [m('a')]],
  ["OpenAI's [DONE]", 'data: {"a":1}\n\ndata: [DONE]\n\n', [m('{"a":1}'), m('[DONE]')]],
  ['an empty body', '', []],
];

const LINE_ENDS = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
] as const;

// Every standard case with each line end, and a leading BOM on some of them: [name, bytes, events].
const TABLE = [
  ...STANDARD.flatMap(([what, text, events]) => LINE_ENDS.map(([end, sep]) => [`${what} (${end})`, text.replaceAll('\n', sep), events] as const)),
  ...STANDARD.slice(0, 4).flatMap(([what, text, events]) =>
    LINE_ENDS.map(([end, sep]) => [`${what} after a BOM (${end})`, `\uFEFF${text.replaceAll('\n', sep)}`, events] as const),
  ),
  ['mixed line ends', 'event: a\rdata: 1\r\n\ndata: 2\n\r', [m('1', 'a'), m('2')]] as const,
];

/** A side whose every answer is `body`, an event stream. */
function sideAnswering(body: string): ParityEndpoint {
  return {
    url: 'http://parity.test',
    apiKey: 'ozk_x',
    fetch: async () => new Response(new TextEncoder().encode(body), { headers: { 'content-type': 'text/event-stream' } }),
  };
}

describe("parity reads event streams with the client's reader", () => {
  it('the table covers the standard cases with every line end', () => {
    expect(TABLE.length).toBe(STANDARD.length * 3 + 12 + 1);
  });

  it.each(TABLE)('%s', async (_, body, events) => {
    const answer = await send(sideAnswering(body), { method: 'POST', path: '/v1/execute' });
    expect(answer.events).toEqual(events);
  });

  it('a stream cut inside its last event differs from the whole one', async () => {
    const whole = await send(sideAnswering('event: token\ndata: a\n\nevent: result\ndata: {"ok":true}\n\n'), { method: 'POST', path: '/v1/execute' });
    const cut = await send(sideAnswering('event: token\ndata: a\n\nevent: result\ndata: {"ok":true}'), { method: 'POST', path: '/v1/execute' });
    expect(compareAnswers(whole, cut, { settled: true, list: false })).toEqual([{ path: 'events', reference: 'token result', target: 'token' }]);
  });
});
