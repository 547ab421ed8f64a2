import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Oz, OzAbortError, OzTimeoutError, type ClientOptions } from '../../../src/index.js';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { rejectionOf } from '../support/clients.js';

// The attempt path does not depend on the fetch a client is given (contract: "Where users build and ship the
// client"): one call through the runtime's own fetch over loopback HTTP, one through `server.fetch`, each seen by
// what its fetch receives and how the attempt ends.

let server: OzServer;
let listener: OzListener;
beforeAll(async () => {
  server = createTestServer();
  listener = await server.listen();
});
afterAll(async () => {
  await listener.close();
  await server.close();
});
afterEach(() => {
  vi.unstubAllGlobals();
  server.faults.clear();
});

interface Seen {
  readonly init: RequestInit;
  settled: 'resolved' | 'rejected' | 'pending';
}

/** The two ways in: the runtime's own `fetch` (looked up per call, as the SDK does) over loopback, and `server.fetch`. */
const PATHS = [
  [
    "the runtime's own fetch over loopback HTTP",
    (seen: Seen[]): Partial<ClientOptions> => {
      const runtimeFetch = globalThis.fetch;
      // Only this file's server: a call another file left running in the worker is not this test's.
      vi.stubGlobal('fetch', (input: string, init: RequestInit) =>
        String(input).startsWith(listener.url) ? watched(seen, init, runtimeFetch(input, init)) : runtimeFetch(input, init),
      );
      return { baseURL: listener.url };
    },
  ],
  [
    'server.fetch (in process)',
    (seen: Seen[]): Partial<ClientOptions> => ({ baseURL: server.url, fetch: (input, init) => watched(seen, init!, server.fetch(input, init)) }),
  ],
] as const;

function watched(seen: Seen[], init: RequestInit, fetching: Promise<Response>): Promise<Response> {
  const entry: Seen = { init, settled: 'pending' };
  seen.push(entry);
  fetching.then(
    () => (entry.settled = 'resolved'),
    () => (entry.settled = 'rejected'),
  );
  return fetching;
}

function client(options: Partial<ClientOptions>): Oz {
  return new Oz({ apiKey: server.apiKey, logLevel: 'off', maxRetries: 0, ...options });
}

describe.each(PATHS)('one attempt path: %s', (_, through) => {
  it("hands the fetch the attempt's own signal, never aborted by an answer that came", async () => {
    const seen: Seen[] = [];
    const caller = new AbortController();
    const oz = client(through(seen));
    await oz.tools.execute('echo', { text: 'hi' });
    await oz.tools.execute('echo', { text: 'hi' }, { signal: caller.signal });
    expect(seen).toHaveLength(2);
    for (const { init } of seen) {
      expect(init.signal).toBeInstanceOf(AbortSignal);
      expect(init.signal).not.toBe(caller.signal);
      expect(init.signal!.aborted).toBe(false);
      expect(init.redirect).toBe('manual');
      expect(init.headers).not.toBeInstanceOf(Headers);
    }
  });

  it("a caller's abort aborts the fetch's signal with its reason, and the call rejects with OzAbortError", async () => {
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 5_000 });
    const seen: Seen[] = [];
    const caller = new AbortController();
    const call = client(through(seen)).tools.execute('echo', { text: 'hi' }, { signal: caller.signal });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error('user gave up');
    caller.abort(reason);
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(OzAbortError);
    expect((error as OzAbortError).cause).toBe(reason);
    expect(seen[0]!.init.signal!.aborted).toBe(true);
    expect(seen[0]!.init.signal!.reason).toBe(reason);
  });

  it("the timeout aborts the fetch's signal with OzTimeoutError and the attempt is retried", async () => {
    // Scoped to this test's body: a request of an earlier test still in flight cannot take the fault.
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 60_000, times: 1, body: { text: 'timeout then retry' } });
    const seen: Seen[] = [];
    const oz = client({ ...through(seen), maxRetries: 1, retry: { initialDelayMs: 1, maxDelayMs: 1 } });
    // The timeout holds for each attempt: the retry's answer must come within it too, on a loaded machine as well.
    expect(await oz.tools.execute('echo', { text: 'timeout then retry' }, { timeout: 3_000 })).toMatchObject({ ok: true, content: 'timeout then retry' });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.init.signal!.reason).toBeInstanceOf(OzTimeoutError);
    expect(seen[1]!.init.signal!.aborted).toBe(false);
  });

  it('a timeout with no retry left rejects with OzTimeoutError, and the fetch itself ends (its request is not left running)', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 5_000 });
    const seen: Seen[] = [];
    const started = Date.now();
    const error = await rejectionOf(client(through(seen)).tools.execute('echo', { text: 'hi' }, { timeout: 100 }));
    expect(error).toBeInstanceOf(OzTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    await vi.waitFor(() => expect(seen[0]!.settled).toBe('rejected'));
  });
});
