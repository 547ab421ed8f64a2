import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainTokenData } from '../../../src/core/streams/tokenData.js';
import { Stream, type ExecuteStreamEvent } from '../../../src/index.js';

const tryJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return 'not JSON';
  }
};

describe("a token event's plain data, read without JSON.parse", () => {
  it('is what JSON.parse gives for every token the service writes, whatever its text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (delta) => {
        const data = JSON.stringify({ delta });
        const plain = plainTokenData(data);
        expect(plain ?? JSON.parse(data)).toStrictEqual(JSON.parse(data));
        // Only text that needs no escape takes the short way.
        expect(plain !== undefined).toBe(!/["\\\u0000-\u001f]/.test(delta));
      }),
      { numRuns: 1000 },
    );
  });

  it('is never a different answer than JSON.parse, for any data at all', () => {
    const near = fc.string({ unit: fc.constantFrom('{', '}', '"', '\\', 'd', 'e', 'l', 't', 'a', ':', ' ', '\n', '\u0001', 'é') });
    fc.assert(
      fc.property(
        fc.oneof(
          near,
          near.map((s) => `{"delta":"${s}`),
          near.map((s) => `{"delta":"${s}"}`),
        ),
        (data) => {
          const plain = plainTokenData(data);
          if (plain !== undefined) expect(plain).toStrictEqual(tryJson(data));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves escapes, other fields and other spacing to JSON.parse', () => {
    for (const data of ['{"delta":"a\\"b"}', '{"delta":"\\u00e9"}', '{"delta":"a","x":1}', '{ "delta":"a"}', '{"delta":"a"} ', '{"delta":"', '{"delta":1}']) {
      expect(plainTokenData(data)).toBeUndefined();
    }
    expect(plainTokenData('{"delta":""}')).toStrictEqual({ delta: '' });
  });

  it('a stream reads plain and escaped tokens alike, with their text', async () => {
    const body = [
      'event: token\ndata: {"delta":"plain "}\n\n',
      'event: token\ndata: {"delta":"quote \\" and\\nline "}\n\n',
      'event: token\ndata: {"delta":""}\n\n',
      'event: result\ndata: {"ok":true,"content":"x","execution_id":"exe_1","request_id":"req_1"}\n\n',
    ].join('');
    const stream = new Stream<ExecuteStreamEvent>(new Response(body), { mode: 'events' });
    const seen: unknown[] = [];
    for await (const event of stream) seen.push(event.data);
    expect(seen.slice(0, 3)).toStrictEqual([{ delta: 'plain ' }, { delta: 'quote " and\nline ' }, { delta: '' }]);
    expect(await stream.finalText()).toBe('plain quote " and\nline ');
  });
});
