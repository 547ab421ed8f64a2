import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Oz, OzAbortError, type ClientOptions } from '../../../src/index.js';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { rejectionOf } from '../support/clients.js';

// Many calls sharing one AbortSignal (contract: "Trust at the edges, round 3"): no MaxListenersExceededWarning,
// and no listener left on the signal once they settle.

const CALLS = 50;
let server: OzServer;
let listener: OzListener;
const warnings: Error[] = [];
const onWarning = (warning: Error) => void warnings.push(warning);

beforeAll(async () => {
  server = createTestServer();
  listener = await server.listen();
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await listener.close();
  await server.close();
});
afterEach(() => {
  warnings.length = 0;
  server.faults.clear();
});

const client = (options: Partial<ClientOptions> = {}) =>
  new Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off', retry: { initialDelayMs: 20, maxDelayMs: 20, jitter: 0 }, ...options });
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;
/** Lets a warning emitted on the way reach its listener (Node emits them on the next tick). */
const warningsSettled = () => new Promise((resolve) => setImmediate(resolve));

describe(`${CALLS} concurrent calls on one signal`, () => {
  it('settle with no warning, at most one listener on the signal while they run, none after', async () => {
    const signal = new AbortController().signal;
    const calls = Array.from({ length: CALLS }, (_, i) => client().tools.execute('echo', { text: `c${i}` }, { signal }));
    expect(abortListeners(signal)).toBeLessThanOrEqual(1);
    const results = await Promise.all(calls);
    expect(results.map((result) => result.content)).toEqual(Array.from({ length: CALLS }, (_, i) => `c${i}`));
    await warningsSettled();
    expect(warnings).toEqual([]);
    expect(abortListeners(signal)).toBe(0);
  });

  it('aborted while in flight: each rejects with OzAbortError, no warning, no listener left', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 5_000, times: CALLS });
    const controller = new AbortController();
    const calls = Array.from({ length: CALLS }, () => rejectionOf(client().tools.execute('echo', { text: 'x' }, { signal: controller.signal })));
    // The calls are sent and waiting for their answers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort(new Error('gave up'));
    const errors = await Promise.all(calls);
    for (const error of errors) expect(error).toBeInstanceOf(OzAbortError);
    await warningsSettled();
    expect(warnings).toEqual([]);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('waiting to retry and asking a key provider, on the same signal: no warning, no listener left', async () => {
    // Each call's own first attempt fails once (a fault per body: a shared count could fail one call three times).
    for (let i = 0; i < CALLS; i++)
      server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', body: { text: `again ${i}` } });
    const signal = new AbortController().signal;
    const oz = client({ apiKey: async () => server.apiKey });
    const results = await Promise.all(Array.from({ length: CALLS }, (_, i) => oz.tools.execute('echo', { text: `again ${i}` }, { signal })));
    expect(results.map((result) => result.content)).toEqual(Array.from({ length: CALLS }, (_, i) => `again ${i}`));
    expect(server.faults.pending).toEqual([]);
    await warningsSettled();
    expect(warnings).toEqual([]);
    expect(abortListeners(signal)).toBe(0);
  });
});
