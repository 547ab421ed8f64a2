/**
 * The loopback rows compare the SDK with a raw fetch "with the same headers": this holds the raw fetch's headers
 * (bench/figures/loopbackCalls.ts) to what the SDK really sends, so the row keeps comparing like with like.
 */
import { describe, expect, it } from 'vitest';
import { rawFetchHeaders } from '../../bench/figures/loopbackCalls.js';
import { API_VERSION, Oz, SDK_VERSION } from '../../src/index.js';

const KEY = 'ozk_BenchKey0123456789abcdefghijklmno';

async function sentHeaders(call: (oz: Oz) => Promise<unknown>): Promise<Record<string, string>> {
  let sent: Headers | undefined;
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    sent = new Headers(init?.headers);
    return new Response('{"ok":true,"content":"hello","execution_id":"exe_1","request_id":"req_1"}', { headers: { 'content-type': 'application/json' } });
  };
  await call(new Oz({ baseURL: 'http://127.0.0.1:9', apiKey: KEY, fetch, logLevel: 'off' }));
  return Object.fromEntries(sent!);
}

describe('the loopback rows compare like with like', () => {
  it.each([
    ['tools.execute', (oz: Oz) => oz.tools.execute('echo', { text: 'hello' })],
    ['companies.items.create', (oz: Oz) => oz.companies.items.create('acme', { building: 'hq', title: 'Benchmark item' })],
  ])('the raw fetch of the %s row sends every header the SDK sends (its own fresh x-trace-id)', async (_, call) => {
    const { 'x-trace-id': traceId, ...sdk } = await sentHeaders(call);
    expect(traceId).toMatch(/^exe_/);
    expect(rawFetchHeaders(KEY, SDK_VERSION, API_VERSION)).toEqual(sdk);
  });
});
