/**
 * Testing code that calls Oz with nock (14 or later): nock intercepts Node's global `fetch`, which the client
 * looks up on every call, so a client made without a `fetch` option is answered by the scopes you declare.
 * Useful when a test suite already uses nock for its other services; for the whole API, use the embedded server.
 *
 *   npx vitest run examples/testing/nock.test.ts
 */
// #region nock
import nock from 'nock';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { Oz, RateLimitedError } from 'oz-sdk';

const oz = new Oz({ baseURL: 'https://oz.example.test', apiKey: 'ozk_0123456789abcdefghijklmnopqrstuv', maxRetries: 1 });

beforeAll(() => nock.disableNetConnect()); // a request no scope answers fails instead of leaving the machine
afterEach(() => {
  expect(nock.isDone()).toBe(true); // every scope declared by the test was used
  nock.cleanAll();
});

it('answers a tool execution', async () => {
  nock('https://oz.example.test')
    .post('/v1/tools/echo/execute', { text: 'hi' })
    .matchHeader('authorization', 'Bearer ozk_0123456789abcdefghijklmnopqrstuv')
    .reply(200, { ok: true, content: 'hi', execution_id: 'exe_1', request_id: 'req_1' });

  const result = await oz.tools.execute('echo', { text: 'hi' });
  expect(result.content).toBe('hi');
});

it('retries a 429 after its Retry-After, then throws the typed error', async () => {
  const limited = { error: { code: 'rate_limited', message: 'Slow down.', request_id: 'req_2' } };
  nock('https://oz.example.test')
    .get('/v1/tools')
    .times(2) // the call and its one retry
    .reply(429, limited, { 'Retry-After': '0', 'X-Error-Code': 'rate_limited' });

  await expect(oz.tools.list()).rejects.toBeInstanceOf(RateLimitedError);
});
// #endregion
