/** `oz-mock parity` compares streams by event names, order and each event's data shape (keys and value types). */
import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../../src/testing/parity/shapeDiff.js';
import { readEvents, type ParityAnswer } from '../../../src/testing/parity/exchange.js';
import { eventRuns } from '../../../src/testing/parity/streamShape.js';

/** A stream answer whose events are read from SSE text by the client's parser, as `send` reads them. */
function streamOf(text: string): ParityAnswer {
  return {
    status: 200,
    headers: new Headers({ 'content-type': 'text/event-stream' }),
    contentType: 'text/event-stream',
    text,
    value: undefined,
    events: readEvents(text),
  };
}

const sse = (events: ReadonlyArray<[string, unknown]>) => events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const options = { settled: true, list: false };

describe('streams compared by shape', () => {
  it('finds no difference between streams whose values differ but whose shapes do not', () => {
    const reference = streamOf(
      sse([
        ['token', { delta: 'Hel' }],
        ['token', { delta: 'lo' }],
        ['result', { status: 'succeeded', content: 'Hello', tokens: 2 }],
      ]),
    );
    const target = streamOf(
      sse([
        ['token', { delta: 'Bye' }],
        ['result', { status: 'failed', content: 'Bye', tokens: 9 }],
      ]),
    );
    expect(compareAnswers(reference, target, options)).toEqual([]);
  });

  it('names a difference of shape by event index and path', () => {
    const reference = streamOf(
      sse([
        ['token', { delta: 'a' }],
        ['token', { delta: 'b' }],
        ['result', { content: 'ab', usage: { tokens: 2 } }],
      ]),
    );
    const target = streamOf(
      sse([
        ['token', { delta: 'a' }],
        ['token', { delta: 7 }],
        ['result', { content: 'ab', usage: {} }],
      ]),
    );
    expect(compareAnswers(reference, target, options)).toEqual([
      { path: 'events[1](token).data.delta', reference: 'b', target: 7 },
      { path: 'events[2](result).data.usage.tokens', reference: 2, target: '(absent)' },
    ]);
  });

  it('reports another order of names as one difference and compares no data then', () => {
    const reference = streamOf(
      sse([
        ['token', { delta: 'a' }],
        ['result', { content: 'a' }],
      ]),
    );
    const target = streamOf(
      sse([
        ['result', { other: 1 }],
        ['token', { delta: 'a' }],
      ]),
    );
    expect(compareAnswers(reference, target, options)).toEqual([{ path: 'events', reference: 'token result', target: 'result token' }]);
  });

  it("groups a chat stream's chunks in one run and leaves [DONE] out of the data compared", () => {
    const chunk = (content: unknown) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ delta: { content } }] })}\n\n`;
    const reference = streamOf(`${chunk('a')}${chunk('b')}data: [DONE]\n\n`);
    const target = streamOf(`${chunk('x')}data: [DONE]\n\n`);
    expect(eventRuns(reference.events!).map((r) => [r.name, r.events.length])).toEqual([
      ['message', 2],
      ['[DONE]', 1],
    ]);
    expect(compareAnswers(reference, target, options)).toEqual([]);
    expect(compareAnswers(reference, streamOf(`${chunk(null)}data: [DONE]\n\n`), options)).toEqual([
      { path: 'events[0](message).data.choices[0].delta.content', reference: 'a', target: null },
    ]);
  });
});
