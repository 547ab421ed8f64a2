/** The chain's last step (src/core/fetch/fetchOnce.ts): what the fetch is given. */
import { describe, expect, it, vi } from 'vitest';
import { fetchOnce } from '../../../src/core/fetch/fetchOnce.js';
import { OzError } from '../../../src/core/errors/errors.js';
import type { Call, CallSettings, Next } from '../../../src/core/shared/call.js';
import { AttemptSignal } from '../../../src/core/shared/attemptSignal.js';
import type { FetchOptions } from '../../../src/core/shared/requestOptions.js';

const unreachable: Next = () => Promise.reject(new OzError('the last step calls no next'));

function callWith(fetchOptions: FetchOptions | undefined, fetch: CallSettings['fetch']): Call {
  const signal = new AttemptSignal(undefined, 1_000);
  const init: RequestInit = { method: 'POST', headers: { 'x-trace-id': 'exe_1' }, body: '{}', signal: signal.signal };
  return { url: 'https://oz.test/v1/tools/echo/execute', settings: { fetch, fetchOptions } as CallSettings, sending: { signal, init } } as Call;
}

describe('fetchOnce', () => {
  it("sends the attempt's request with redirect: 'manual', over the fetchOptions, and answers the response unread", async () => {
    const fetch = vi.fn(async () => new Response('hello'));
    const answer = await fetchOnce(callWith({ keepalive: true, redirect: 'follow', method: 'GET' } as FetchOptions, fetch), unreachable);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://oz.test/v1/tools/echo/execute');
    // The attempt's method, headers and body win over fetchOptions; redirects are the next step's to follow.
    expect(init).toMatchObject({ keepalive: true, redirect: 'manual', method: 'POST', body: '{}', headers: { 'x-trace-id': 'exe_1' } });
    expect(answer.text).toBe('');
    expect(await answer.response.text()).toBe('hello');
  });

  it('sends no fetchOptions when there are none, and lets a failing fetch reject as it did', async () => {
    const failure = new TypeError('fetch failed');
    const fetch = vi.fn(async () => {
      throw failure;
    });
    await expect(fetchOnce(callWith(undefined, fetch), unreachable)).rejects.toBe(failure);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(Object.keys(init).sort()).toEqual(['body', 'headers', 'method', 'redirect', 'signal']);
  });
});
