// Middleware (`middleware` on the client, on withOptions() and on a call; `oz.raw.use()`): on every attempt of
// every request the client makes, against the scripted server (exact attempts and wire) and the embedded server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InternalError,
  Oz,
  OzConnectionError,
  OzAbortError,
  OzMiddlewareError,
  OzTimeoutError,
  OzUsageError,
  type ClientOptions,
  type Middleware,
  type MiddlewareContext,
} from '../../../src/index.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { envelope, KEY, rejectionOf } from '../support/clients.js';
import { executionRecord } from '../support/executionRecord.js';
import { ScriptedServer, type ScriptedAnswer } from '../support/scriptedServer.js';

const scripted = ScriptedServer.forSuite();
const fast = { retry: { initialDelayMs: 1, maxDelayMs: 5 } } as const;
const client = (options: ClientOptions = {}) => new Oz({ baseURL: scripted.url, apiKey: KEY, logLevel: 'off', ...fast, ...options });
const internal = { status: 500, headers: { 'x-error-code': 'internal_error' }, body: { error: { code: 'internal_error', message: 'boom' } } };

/** A middleware that records each attempt it sees (context and the request's retry count), then calls next. */
function recorder() {
  const seen: { context: MiddlewareContext; retryCount: string | null; url: string }[] = [];
  const middleware: Middleware = (request, next, context) => {
    seen.push({ context, retryCount: request.headers.get('x-oz-retry-count'), url: request.url });
    return next(request);
  };
  return { seen, middleware };
}

describe('middleware against the scripted server', () => {
  it('sees every attempt of a retried call, with its context, and each attempt carries x-oz-retry-count', async () => {
    scripted.answer(internal, internal, { body: envelope('third') });
    const { seen, middleware } = recorder();
    const result = await client({ middleware: [middleware] }).tools.execute('echo', { text: 'x' });
    expect(result.content).toBe('third');
    expect(seen.map((s) => s.context.attempt)).toEqual([0, 1, 2]);
    expect(seen.map((s) => s.retryCount)).toEqual(['0', '1', '2']);
    expect(scripted.requests.map((r) => r.headers['x-oz-retry-count'])).toEqual(['0', '1', '2']);
    const trace = scripted.requests[0]!.headers['x-trace-id'];
    for (const { context } of seen) {
      expect(context).toMatchObject({ operationId: 'executeTool', plane: 'execution', wire: 'json', traceId: trace });
      expect(context.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it("runs the client's, then withOptions()', then the call's, each inside the one before", async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const order: string[] = [];
    const named =
      (name: string): Middleware =>
      async (request, next) => {
        order.push(`${name} in`);
        const response = await next(new Request(request, { headers: { ...Object.fromEntries(request.headers), [`x-${name}`]: '1' } }));
        order.push(`${name} out`);
        return response;
      };
    const derived = client({ middleware: [named('client')] }).withOptions({ middleware: [named('derived')] });
    await derived.tools.execute('echo', { text: 'x' }, { middleware: [named('call')], format: 'text' });
    expect(order).toEqual(['client in', 'derived in', 'call in', 'call out', 'derived out', 'client out']);
    expect(scripted.requests[0]!.headers).toMatchObject({ 'x-client': '1', 'x-derived': '1', 'x-call': '1' });
    // The wire of the context is the call's.
    const { seen, middleware } = recorder();
    await client({ middleware: [middleware] }).tools.execute('echo', { text: 'x' }, { format: 'markdown' });
    expect(seen[0]!.context.wire).toBe('markdown');
  });

  it('may answer a request itself: nothing is sent, and its error answer is retried like the service', async () => {
    let calls = 0;
    const answering: Middleware = async (request, next) => {
      calls += 1;
      if (calls === 1) return Response.json({ error: { code: 'internal_error', message: 'from the middleware' } }, { status: 503 });
      if (calls === 2) return Response.json(envelope('cached'));
      return next(request);
    };
    const oz = client({ middleware: [answering] });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('cached');
    expect(calls).toBe(2);
    expect(scripted.requests).toHaveLength(0);
  });

  it('observes a stream through a clone, leaving the caller every event', async () => {
    const events =
      'event: token\ndata: {"delta":"a"}\n\nevent: token\ndata: {"delta":"b"}\n\nevent: result\ndata: {"ok":true,"content":"ab","execution_id":"exe_1","request_id":"req_1"}\n\n';
    scripted.answer({ headers: { 'content-type': 'text/event-stream' }, parts: [{ data: events.slice(0, 30) }, { delayMs: 20, data: events.slice(30) }] });
    let observed: Promise<string> | undefined;
    const observer: Middleware = async (request, next) => {
      const response = await next(request);
      observed = response.clone().text();
      return response;
    };
    const stream = await client({ middleware: [observer] }).agents.execute({ agent: 'writer', user_request: 'x', stream: true });
    expect(await stream.finalText()).toBe('ab');
    expect(await observed).toBe(events);
  });

  it('a thrown error reaches the caller typed: OzMiddlewareError with the cause, not retried; an OzError as it is', async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const cause = new Error('policy says no');
    let runs = 0;
    const refusing: Middleware = async () => {
      runs += 1;
      throw cause;
    };
    const error = await rejectionOf(client({ middleware: [recorder().middleware, refusing] }).tools.execute('echo', { text: 'x' }));
    expect(error).toBeInstanceOf(OzMiddlewareError);
    expect(error).toMatchObject({ message: 'middleware[1] threw: policy says no', middlewareIndex: 1, cause });
    expect(runs).toBe(1);
    const usage = new OzUsageError('mine');
    expect(await rejectionOf(client({ middleware: [async () => Promise.reject(usage)] }).tools.execute('echo', { text: 'x' }))).toBe(usage);
    expect(scripted.requests).toHaveLength(0);
  });

  it('next() called twice rejects with OzUsageError; a middleware resolving to no Response gives OzMiddlewareError', async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const twice: Middleware = async (request, next) => {
      await next(request.clone());
      return next(request);
    };
    const error = await rejectionOf(client({ middleware: [twice] }).tools.execute('echo', { text: 'x' }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/^middleware\[0\] called next\(\) twice in one attempt/);
    expect(scripted.requests).toHaveLength(1);

    const nothing = (async () => undefined) as unknown as Middleware;
    const empty = await rejectionOf(client({ middleware: [nothing] }).tools.execute('echo', { text: 'x' }));
    expect(empty).toBeInstanceOf(OzMiddlewareError);
    expect((empty as Error).message).toBe('middleware[0] resolved to undefined undefined, not a Response; return next(request) or a Response of its own.');

    const notRequest: Middleware = (_request, next) => next('https://elsewhere' as unknown as Request);
    expect(((await rejectionOf(client({ middleware: [notRequest] }).tools.execute('echo', { text: 'x' }))) as Error).message).toMatch(
      /^middleware\[0\] called next\(\) with string https:\/\/elsewhere; pass a Request/,
    );
  });

  it('a middleware that never settles is cut by the attempt timeout (then retried), never a hang', async () => {
    const stuck: Middleware = () => new Promise<Response>(() => undefined);
    const error = await rejectionOf(client({ middleware: [stuck], maxRetries: 1 }).tools.execute('echo', { text: 'x' }, { timeout: 30 }));
    expect(error).toBeInstanceOf(OzTimeoutError);
    const controller = new AbortController();
    const pending = client({ middleware: [stuck] }).tools.execute('echo', { text: 'x' }, { signal: controller.signal });
    controller.abort();
    expect(await rejectionOf(pending)).toBeInstanceOf(OzAbortError);
  });

  it('sees a connection error of next() as OzConnectionError, and the call is retried', async () => {
    scripted.answer({ destroy: true }, { body: envelope('after the reset') });
    const errors: unknown[] = [];
    const watching: Middleware = async (request, next) => {
      try {
        return await next(request);
      } catch (error) {
        errors.push(error);
        throw error;
      }
    };
    expect((await client({ middleware: [watching] }).tools.execute('echo', { text: 'x' })).content).toBe('after the reset');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(OzConnectionError);
  });

  it("sees the polls of a lost answer's recovery and of executions.wait()", async () => {
    const runs = new Set<string>();
    let polls = 0;
    scripted.fallback = (request): ScriptedAnswer => {
      const trace = String(request.headers['x-trace-id']);
      if (request.method === 'POST') {
        if (runs.has(trace))
          return { status: 409, headers: { 'x-error-code': 'duplicate_execution_id' }, body: { error: { code: 'duplicate_execution_id', message: 'used' } } };
        runs.add(trace);
        return { destroy: true };
      }
      polls += 1;
      const id = request.path.split('/').pop()!;
      return polls % 2 === 1 ? { headers: { 'retry-after-ms': '1' }, body: executionRecord(id, 'running') } : { body: executionRecord(id, 'succeeded') };
    };
    const { seen, middleware } = recorder();
    const oz = client({ middleware: [middleware] });
    expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('first run result');
    expect(seen.map((s) => `${s.context.operationId} ${s.context.attempt}`)).toEqual(['executeTool 0', 'executeTool 1', 'getExecution 0', 'getExecution 0']);
    seen.length = 0;
    await oz.executions.wait('exe_waited', { interval: 1 });
    expect(seen.map((s) => s.context.operationId)).toEqual(['getExecution', 'getExecution']);
    expect(seen[0]!.url).toContain(`${scripted.url}/v1/executions/exe_waited`);
  });

  it("oz.raw.use() takes the same middleware, run inside the client's on every attempt; eject() removes it", async () => {
    scripted.answer(internal, { body: { status: 'ok' } }, { body: { status: 'ok' } });
    const order: string[] = [];
    const oz = client({ middleware: [(request, next, context) => (order.push(`client ${context.attempt}`), next(request))] });
    const raw: Middleware = (request, next, context) => (order.push(`raw ${context.operationId} ${context.attempt}`), next(request));
    oz.raw.use(raw);
    await oz.raw.GET('/health');
    oz.raw.eject(raw);
    await oz.raw.GET('/health');
    expect(order).toEqual(['client 0', 'raw getHealth 0', 'client 1', 'raw getHealth 1', 'client 0']);
  });

  it('bad middleware options are OzUsageError with the option named', () => {
    const message = (came: string) => `middleware must be an array of functions (request, next, context) => Promise<Response>, not ${came}.`;
    expect(() => client({ middleware: 'nope' as never })).toThrow(new OzUsageError(message('string ("nope")')));
    // An openapi-fetch middleware object is not a middleware function.
    expect(() => client({ middleware: [{ onRequest() {} }] as never })).toThrow(new OzUsageError(message('an array')));
    expect(() => client().withOptions({ middleware: (() => undefined) as never })).toThrow(new OzUsageError(message('a function')));
    return expect(client().tools.execute('echo', { text: 'x' }, { middleware: [null as never] })).rejects.toThrow(new OzUsageError(message('an array')));
  });
});

describe('middleware against the embedded server', () => {
  let server: OzServer;
  beforeAll(() => {
    server = createTestServer();
  });
  afterAll(() => server.close());
  const oz = (options: ClientOptions = {}) => new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off', ...fast, ...options });

  it('sees every attempt of a call retried after 500s; the journal shows x-oz-retry-count 0, 1, 2', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 2 });
    const { seen, middleware } = recorder();
    expect((await oz({ middleware: [middleware] }).tools.execute('echo', { text: 'again' })).content).toBe('again');
    expect(seen.map((s) => s.context.attempt)).toEqual([0, 1, 2]);
    expect(
      server.journal
        .filter('executeTool')
        .slice(-3)
        .map((e) => [e.status, e.headers['x-oz-retry-count']]),
    ).toEqual([
      [500, '0'],
      [500, '1'],
      [200, '2'],
    ]);
  });

  it("sees a lost answer's recovery and the polls of wait()", async () => {
    server.faults.add({ operationId: 'executeTool', type: 'lose' });
    const { seen, middleware } = recorder();
    const client = oz({ middleware: [middleware] });
    expect((await client.tools.execute('echo', { text: 'lost' })).content).toBe('lost');
    const ops = seen.map((s) => s.context.operationId);
    expect(ops.slice(0, 2)).toEqual(['executeTool', 'executeTool']);
    expect(ops.slice(2).every((op) => op === 'getExecution') && ops.length > 2).toBe(true);
    seen.length = 0;
    const pointer = await client.agents.execute({ agent: 'writer', user_request: 'later', async: true });
    await client.executions.wait(pointer, { interval: 1 });
    expect(seen[0]!.context.operationId).toBe('executeAgent');
    expect(
      seen
        .slice(1)
        .map((s) => s.context.operationId)
        .every((op) => op === 'getExecution') && seen.length > 1,
    ).toBe(true);
  });

  it('runs for the MCP client and oz.raw, and a thrown error is typed there too', async () => {
    const { seen, middleware } = recorder();
    const client = oz({ middleware: [middleware] });
    expect((await client.whoami()).tier).toBe('pro');
    await client.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
    expect(seen.map((s) => `${s.context.operationId} ${s.context.plane}`)).toEqual(['mcpRequest mcp', 'getTool execution']);
    const failing = oz({ middleware: [() => Promise.reject(new Error('no MCP today'))] });
    expect(await rejectionOf(failing.mcp.listTools())).toBeInstanceOf(OzMiddlewareError);
  });

  it('an error answer a middleware gives is the typed error of its code', async () => {
    const client = oz({
      maxRetries: 0,
      middleware: [
        async () => Response.json({ error: { code: 'internal_error', message: 'mw' } }, { status: 500, headers: { 'x-error-code': 'internal_error' } }),
      ],
    });
    expect(await rejectionOf(client.tools.get('echo'))).toBeInstanceOf(InternalError);
  });
});
