import { afterEach, describe, expect, it, vi } from 'vitest';
import { Oz, OzAbortError, OzConnectionError, OzTimeoutError, type ClientOptions, type ExecuteStreamEvent } from '../../../src/index.js';
import { envelope, expectAbortedMidCall, fastClient, KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();
const body = { text: 'hello' };
const TEN_MINUTES = 600_000;
const encoder = new TextEncoder();

/** A call's outcome, readable without awaiting it: pending until the call settles. */
function watch(call: PromiseLike<unknown>): { state: () => 'pending' | 'resolved' | 'rejected'; error: () => unknown } {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  let error: unknown;
  call.then(
    () => (state = 'resolved'),
    (e: unknown) => {
      state = 'rejected';
      error = e;
    },
  );
  return { state: () => state, error: () => error };
}

/** Lets every pending promise and I/O callback run (setImmediate is not faked). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A body that sends `first` and then waits; `cancelled` holds the reason it was cancelled with. */
function stalledBody(first: string): { stream: ReadableStream<Uint8Array>; cancelled: unknown[] } {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(encoder.encode(first)),
    cancel: (reason) => void cancelled.push(reason),
  });
  return { stream, cancelled };
}

/** Replaces the global fetch (the SDK's default, looked up per call) with `fetch`; each init it got is kept. */
function globalFetch(fetch: (init: RequestInit) => Promise<Response>): RequestInit[] {
  const inits: RequestInit[] = [];
  vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
    inits.push(init);
    return fetch(init);
  });
  return inits;
}

const client = (options: Partial<ClientOptions> = {}) => new Oz({ baseURL: 'http://127.0.0.1:9', apiKey: KEY, logLevel: 'off', maxRetries: 0, ...options });
const okAnswer = () => Promise.resolve(new Response(JSON.stringify(envelope('done')), { headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('every attempt gives its fetch a signal of its own', () => {
  it.each<[string, Partial<ClientOptions>, { signal?: AbortSignal; timeout?: number }]>([
    ["Node's own fetch, no signal, the 10-minute timeout", {}, {}],
    ["a call's signal", {}, { signal: new AbortController().signal }],
    ['a short timeout (client)', { timeout: 299_999 }, {}],
    ['a short timeout (call)', {}, { timeout: 5_000 }],
    ['fetchOptions', { fetchOptions: { keepalive: true } }, {}],
  ])('%s', async (_, clientOptions, callOptions) => {
    const inits = globalFetch(okAnswer);
    await client(clientOptions).tools.execute('echo', body, callOptions);
    expect(inits).toHaveLength(1);
    expect(inits[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(inits[0]!.signal).not.toBe(callOptions.signal);
  });

  it('gives a fetch of your own a signal too', async () => {
    const inits: RequestInit[] = [];
    await client({ fetch: (_url, init) => (inits.push(init!), okAnswer()) }).tools.execute('echo', body);
    expect(inits[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it("gives middleware's request the attempt's signal", async () => {
    globalFetch(okAnswer);
    const signals: AbortSignal[] = [];
    await client({ middleware: [(request, next, context) => (signals.push(context.signal), next(request))] }).tools.execute('echo', body);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });
});

describe('an attempt keeps its timeout, even when its fetch ignores the signal', () => {
  it('rejects with OzTimeoutError at the deadline when no headers came, aborts the signal, and cancels the late answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answer!: (response: Response) => void;
    const inits = globalFetch(() => new Promise((resolve) => (answer = resolve)));
    const call = watch(client().tools.execute('echo', body));
    await vi.advanceTimersByTimeAsync(TEN_MINUTES - 1);
    expect(call.state()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(call.state()).toBe('rejected');
    expect(call.error()).toBeInstanceOf(OzTimeoutError);
    expect((call.error() as Error).message).toMatch(/timed out after 600000 ms/);
    expect(inits[0]!.signal!.aborted).toBe(true);
    expect(inits[0]!.signal!.reason).toBeInstanceOf(OzTimeoutError);
    const late = stalledBody('{"ok":');
    answer(new Response(late.stream, { headers: { 'content-type': 'application/json' } }));
    await settle();
    expect(late.cancelled).toHaveLength(1);
  });

  it('rejects with OzTimeoutError at the deadline while the body is read, and cancels the body', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stalled = stalledBody('{"ok":');
    globalFetch(() => Promise.resolve(new Response(stalled.stream, { headers: { 'content-type': 'application/json' } })));
    const call = watch(client().tools.execute('echo', body));
    await vi.advanceTimersByTimeAsync(TEN_MINUTES - 1);
    expect(call.state()).toBe('pending');
    expect(stalled.cancelled).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(call.error()).toBeInstanceOf(OzTimeoutError);
    expect(stalled.cancelled).toHaveLength(1);
    expect(stalled.cancelled[0]).toBeInstanceOf(OzTimeoutError);
  });

  it('retries an attempt that timed out, with the same x-trace-id', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let attempts = 0;
    const inits = globalFetch(() => (++attempts === 1 ? new Promise<Response>(() => undefined) : okAnswer()));
    const call = watch(client({ maxRetries: 1 }).tools.execute('echo', body));
    await vi.advanceTimersByTimeAsync(TEN_MINUTES);
    await settle();
    expect(attempts).toBe(1);
    // The backoff before the retry (at most 0.5 s).
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(call.state()).toBe('resolved');
    expect(attempts).toBe(2);
    const traceIds = inits.map((init) => new Headers(init.headers).get('x-trace-id'));
    expect(traceIds[1]).toBe(traceIds[0]);
  });

  it("times only the wait for a stream's first byte", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const events = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
    const inits = globalFetch(() => Promise.resolve(new Response(events, { headers: { 'content-type': 'text/event-stream' } })));
    const stream = await client().agents.execute({ agent: 'writer', user_request: 'hi', stream: true }, { idleTimeout: Infinity });
    expect(inits[0]!.signal!.aborted).toBe(false);
    const seen: ExecuteStreamEvent[] = [];
    const reading = watch(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    push.enqueue(encoder.encode(`event: token\ndata: {"delta":"a"}\n\n`));
    await vi.advanceTimersByTimeAsync(2 * TEN_MINUTES);
    await settle();
    expect(reading.state()).toBe('pending');
    expect(inits[0]!.signal!.aborted).toBe(false);
    push.enqueue(encoder.encode(`event: result\ndata: ${JSON.stringify(envelope('a'))}\n\n`));
    push.close();
    await settle();
    expect(reading.state()).toBe('resolved');
    expect(seen.map((event) => event.event)).toEqual(['token', 'result']);
  });

  it('reads a body that came in several chunks, multi-byte characters split between them, and drops a byte order mark', async () => {
    const bytes = encoder.encode(`\uFEFF${JSON.stringify(envelope('héllo ✓'))}`);
    const chunks = [bytes.subarray(0, 5), bytes.subarray(5, 29), bytes.subarray(29)];
    globalFetch(() =>
      Promise.resolve(
        new Response(new ReadableStream({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) }), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    expect(await client().tools.execute('echo', body)).toEqual(envelope('héllo ✓'));
  });
});

describe('an attempt with a signal', () => {
  it('times out while the body is read (headers came in time) with OzTimeoutError, and retries', async () => {
    server.answer(
      { headers: { 'content-type': 'application/json' }, parts: [{ data: '{"ok":' }, { delayMs: 2000, data: 'true}' }] },
      { body: envelope('done') },
    );
    const result = await fastClient(server, { maxRetries: 1 }).tools.execute('echo', body, { timeout: 150 });
    expect(result).toEqual(envelope('done'));
    expect(server.requests).toHaveLength(2);
  });

  it('cuts the body of a fetch of your own at the deadline, even when the fetch ignores its signal', async () => {
    const stalled = stalledBody('{"ok":');
    const fetch = () => Promise.resolve(new Response(stalled.stream, { headers: { 'content-type': 'application/json' } }));
    const error = await rejectionOf(client({ fetch }).tools.execute('echo', body, { timeout: 50 }));
    expect(error).toBeInstanceOf(OzTimeoutError);
    expect(stalled.cancelled).toHaveLength(1);
  }, 3000);

  it("a caller's abort while the body is read throws OzAbortError and leaves no listener", async () => {
    server.answer({ headers: { 'content-type': 'application/json' }, parts: [{ data: '{"ok":' }, { delayMs: 5000, data: 'true}' }] });
    await expectAbortedMidCall(server, (signal) => fastClient(server).tools.execute('echo', body, { signal }), 30);
  }, 4000);

  it("a caller's abort before the attempt sends nothing", async () => {
    const inits = globalFetch(okAnswer);
    const controller = new AbortController();
    controller.abort();
    expect(await rejectionOf(client().tools.execute('echo', body, { signal: controller.signal }))).toBeInstanceOf(OzAbortError);
    expect(inits).toHaveLength(0);
  });

  it("a stream cut while read without a caller's signal fails as a cut connection", async () => {
    server.answer({
      headers: { 'content-type': 'text/event-stream' },
      parts: [{ data: 'event: token\ndata: {"delta":"a"}\n\n' }, { delayMs: 20, data: 'event: tok' }],
      cutAfterParts: true,
    });
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    const error = await rejectionOf(
      (async () => {
        for await (const _ of stream);
      })(),
    );
    expect(error).toBeInstanceOf(OzConnectionError);
  });
});
