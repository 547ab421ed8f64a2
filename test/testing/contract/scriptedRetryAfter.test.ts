// A fault's or a stub's 429 or 503 that names no Retry-After sends `Retry-After: 1` (the contract asks one of every
// 429 and 503); a given one is kept, and other statuses get none.
import { afterEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../src/testing/index.js';
import { scriptedRetryAfter, withScriptedRetryAfter } from '../../../src/testing/contract/scriptedRetryAfter.js';
import { createTestServer } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

const getItem = () => call(server, 'GET', '/v1/companies/acme/items/itm_x');

describe('the Retry-After of a scripted 429 or 503', () => {
  it('is 1 second when a 429 or 503 names none, the given one otherwise, none for other statuses', () => {
    expect([
      scriptedRetryAfter(429, undefined),
      scriptedRetryAfter(503, undefined),
      scriptedRetryAfter(429, 0),
      scriptedRetryAfter(500, undefined),
      scriptedRetryAfter(502, 7),
    ]).toEqual([1, 1, 0, undefined, 7]);
    expect(withScriptedRetryAfter(503, {})).toEqual({ 'retry-after': '1' });
    expect(withScriptedRetryAfter(429, { 'Retry-After': '9' })).toEqual({ 'Retry-After': '9' });
    expect(withScriptedRetryAfter(500, {})).toEqual({});
  });

  it.each([
    [429, 'rate_limited'],
    [503, 'not_enabled'],
  ] as const)('a fault of status %i without retryAfter sends Retry-After: 1; with retryAfter: 0 sends 0', async (status, code) => {
    server = createTestServer();
    server.faults.add({ operationId: 'getCompanyItem', type: 'error', status, code, times: 1 });
    const first = await getItem();
    expect([first.status, first.headers.get('retry-after')]).toEqual([status, '1']);
    server.faults.add({ operationId: 'getCompanyItem', type: 'error', status, code, retryAfter: 0, times: 1 });
    expect((await getItem()).headers.get('retry-after')).toBe('0');
  });

  it('a fault of status 500 sends none', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'getCompanyItem', type: 'error', status: 500, code: 'internal_error', times: 1 });
    expect((await getItem()).headers.get('retry-after')).toBeNull();
  });

  it('a stub of status 503 without the header sends Retry-After: 1; its own header is kept', async () => {
    server = createTestServer();
    server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 503, body: { error: { code: 'not_enabled', message: 'Not here.' } } }, times: 1 });
    const first = await getItem();
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '1']);
    server.stubs.add({
      operationId: 'getCompanyItem',
      answer: { status: 429, body: { error: { code: 'rate_limited', message: 'Slow.' } }, headers: { 'Retry-After': '30' } },
      times: 1,
    });
    expect((await getItem()).headers.get('retry-after')).toBe('30');
  });
});
