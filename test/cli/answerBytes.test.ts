// The keeper of an answer's wire bytes: what the client read of a 2xx body, whole, and nothing else.
import { describe, expect, it } from 'vitest';
import { AnswerBytes } from '../../src/cli/answerBytes.js';
import type { MiddlewareContext } from '../../src/index.js';

const context = {} as MiddlewareContext;
const request = new Request('http://127.0.0.1/v1/tools');

function through(keeper: AnswerBytes, answer: Response): Promise<Response> {
  return Promise.resolve(keeper.middleware(request, () => Promise.resolve(answer), context));
}

describe('AnswerBytes', () => {
  it('keeps the bytes of a 2xx body the client read to its end, with its Content-Type, and hands on the same bytes', async () => {
    const keeper = new AnswerBytes();
    const sent = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0xff]);
    const response = await through(keeper, new Response(sent, { status: 201, headers: { 'content-type': 'application/json' } }));
    expect(response.status).toBe(201);
    expect(keeper.of(response)).toBeUndefined();
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(sent);
    expect(keeper.of(response)).toEqual({ bytes: sent, contentType: 'application/json' });
  });

  it('keeps nothing of a body read only in part', async () => {
    const keeper = new AnswerBytes();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
      },
    });
    const response = await through(keeper, new Response(body, { headers: { 'content-type': 'application/json' } }));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(keeper.of(response)).toBeUndefined();
  });

  it('leaves error answers, event streams and empty answers as they came', async () => {
    const keeper = new AnswerBytes();
    for (const answer of [
      new Response('{"error":{}}', { status: 404 }),
      new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream; charset=utf-8' } }),
      new Response(null, { status: 204 }),
    ]) {
      expect(await through(keeper, answer)).toBe(answer);
    }
  });

  it('with events, keeps the events of the last event stream as they came and hands on the same bytes', async () => {
    const keeper = new AnswerBytes({ events: true });
    expect(keeper.lastEvents()).toBeUndefined();
    const sent = 'event: token\ndata: {"delta":"a",  "n":1.0}\n\n';
    const response = await through(keeper, new Response(sent, { headers: { 'content-type': 'text/event-stream' } }));
    expect(await response.text()).toBe(sent);
    expect(keeper.lastEvents()?.dataOf({ event: 'token' }, false)).toBe('{"delta":"a",  "n":1.0}');
  });
});
