import { describe, expect, it } from 'vitest';
import type { ResponseEvent } from '../../../src/testing/index.js';
import { checkResponse, createTestServer } from '../../support/ozServer.js';

function event(operationId: string | null, response: Response, route: ResponseEvent['route'] = 'operation'): ResponseEvent {
  const request = new Request('http://api.oz.test/x');
  return {
    operationId,
    route,
    surface: 'api',
    request,
    response,
    journal: {
      requestId: 'req_1',
      operationId,
      mount: 'fetch',
      surface: 'api',
      method: 'GET',
      path: '/x',
      query: '',
      headers: Object.fromEntries(request.headers),
      body: null,
      bodyLength: null,
      bodyTruncated: false,
      account: null,
      status: response.status,
      executionId: null,
      fault: null,
      chaos: null,
      replayed: false,
      proxied: null,
      answeredBy: null,
      at: 0,
    },
  };
}

const keyed = { 'x-request-id': 'req_1', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '60' };

describe('the response validator of the test suite (test/support/ozServer.ts)', () => {
  it('passes a described answer', async () => {
    const res = Response.json({ status: 'ok' }, { headers: { 'x-request-id': 'req_1' } });
    expect(await checkResponse(event('getHealth', res))).toEqual([]);
  });

  it('flags a status the operation does not describe', async () => {
    const res = Response.json({ error: { code: 'x', message: 'y' } }, { status: 418, headers: { 'x-request-id': 'r', 'x-error-code': 'x' } });
    expect((await checkResponse(event('getHealth', res))).join()).toMatch(/status 418 is not described/);
  });

  it('flags a body that breaks the schema, a missing header and an undescribed content type', async () => {
    const bad = Response.json({ data: [{ name: 'echo' }], next_cursor: null }, { headers: keyed });
    expect((await checkResponse(event('listTools', bad))).join()).toMatch(/body \(application\/json\)/);
    const noRate = Response.json({ data: [], next_cursor: null }, { headers: { 'x-request-id': 'r' } });
    expect((await checkResponse(event('listTools', noRate))).join()).toMatch(/missing header x-ratelimit-limit/);
    const html = new Response('<p>', { headers: { ...keyed, 'content-type': 'text/html' } });
    expect((await checkResponse(event('listTools', html))).join()).toMatch(/content type text\/html is not described/);
  });

  it('flags an error whose X-Error-Code differs from its code, and a badly rendered markdown error', async () => {
    const json = Response.json({ error: { code: 'not_found', message: 'm' } }, { status: 404, headers: { 'x-request-id': 'r', 'x-error-code': 'oops' } });
    expect((await checkResponse(event('getTool', json))).join()).toMatch(/differs/);
    const md = new Response('Error!', { status: 404, headers: { 'x-request-id': 'r', 'x-error-code': 'not_found', 'content-type': 'text/markdown' } });
    expect((await checkResponse(event('getTool', md))).join()).toMatch(/markdown error/);
  });

  it('flags an SSE event whose data breaks the contentSchema, and a stream without its closing event', async () => {
    const sse = new Response('event: token\ndata: {"delta": 5}\n\n', { headers: { ...keyed, 'x-execution-id': 'e', 'content-type': 'text/event-stream' } });
    const problems = (await checkResponse(event('executeWorkflowStream', sse))).join();
    expect(problems).toMatch(/SSE event token/);
    expect(problems).toMatch(/exactly one result or error/);
  });

  it('takes a chat stream ended by one error envelope (no [DONE]); flags a chunk after it and a bad envelope', async () => {
    const chunk =
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"oz-chat","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null,"logprobs":null}]}';
    const sse = (body: string) => new Response(body, { headers: { ...keyed, 'content-type': 'text/event-stream' } });
    const ended = `data: ${chunk}\n\nevent: error\ndata: {"error":{"code":"reset","message":"m"}}\n\n`;
    expect(await checkResponse(event('createChatCompletion', sse(ended)))).toEqual([]);
    expect((await checkResponse(event('createChatCompletion', sse(`${ended}data: ${chunk}\n\n`)))).join()).toMatch(/nothing after an error event/);
    expect((await checkResponse(event('createChatCompletion', sse('event: error\ndata: {"error":{"code":"reset"}}\n\n')))).join()).toMatch(/SSE event error/);
    expect((await checkResponse(event('createChatCompletion', sse(`data: ${chunk}\n\n`)))).join()).toMatch(/must end with data: \[DONE\]/);
  });

  it('flags an unrouted answer that is not 404', async () => {
    const res = Response.json({ error: { code: 'x', message: 'y' } }, { status: 500, headers: { 'x-request-id': 'r', 'x-error-code': 'x' } });
    expect((await checkResponse(event(null, res, 'not_found'))).join()).toMatch(/not 404/);
  });

  it('is attached to every server made by createTestServer', async () => {
    const server = createTestServer();
    const seen: number[] = [];
    server.onResponse((e) => seen.push(e.response.status));
    await server.fetch(`${server.url}/health`);
    expect(seen).toEqual([200]);
  });
});
