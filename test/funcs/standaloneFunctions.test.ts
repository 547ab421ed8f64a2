/**
 * `oz-sdk/funcs`: one standalone function per operation of openapi.json (read from the document, so a new
 * operation is covered without a test written for it), each sending the same request as its `Oz` method, and the
 * transport's behaviour (typed errors by `X-Error-Code`, retries, usage errors) through a function.
 */
import { describe, expect, it } from 'vitest';
import * as funcs from '../../src/funcs/index.js';
import { OzCore, agentsExecute, executionsList, toolsExecute, toolsGet } from '../../src/funcs/index.js';
import { ExecutionResult, Oz, OzUsageError, RateLimitedError, Stream, ToolNotFoundError, UnauthorizedError } from '../../src/index.js';
import type { JournalEntry } from '../../src/testing/index.js';
import { KEY, rejectionOf } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { operationCalls } from '../support/operationCalls.js';
import { testServersForSuite } from '../support/ozServer.js';

const servers = testServersForSuite();
const scripted = ScriptedServer.forSuite(() => ({ body: { ok: true, content: 'done', execution_id: 'exe_1', request_id: 'req_1' } }));

/** The standalone function's name: the `Oz` method's path in camelCase. */
const functionName = (clientMethod: string) =>
  clientMethod
    .split('.')
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('');

/** What a journal entry says the client sent, but what differs between two calls by design (ids, trace ids). */
function sent(entry: JournalEntry | undefined, keepTraceId: boolean) {
  if (entry === undefined) throw new Error('no request arrived');
  const headers = Object.fromEntries(Object.entries(entry.headers).filter(([name]) => keepTraceId || name !== 'x-trace-id'));
  return { operationId: entry.operationId, method: entry.method, path: entry.path, query: entry.query, headers, body: entry.body };
}

describe('the standalone functions of oz-sdk/funcs', () => {
  const operations = operationCalls();

  it('has one function per operation of openapi.json, named after its Oz method, and nothing else but OzCore', () => {
    const names = operations.map((op) => functionName(op.clientMethod)).sort();
    for (const name of names) expect(typeof (funcs as Record<string, unknown>)[name], name).toBe('function');
    expect(
      Object.keys(funcs)
        .filter((name) => name !== 'OzCore')
        .sort(),
    ).toEqual(names);
  });

  it.each(operations)('$clientMethod: its function sends the request the Oz method sends ($method $path)', async (op) => {
    const server = servers.create();
    const options = { apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' as const, maxRetries: 0 };
    const values = op.sample();
    const fn = (funcs as unknown as Record<string, (...args: unknown[]) => PromiseLike<unknown>>)[functionName(op.clientMethod)]!;
    // The function takes the method's arguments after the core.
    const viaCore = (core: OzCore) => ({ [op.clientMethod.split('.').at(-1)!]: (...args: unknown[]) => fn(core, ...args) });
    const settle = async (call: PromiseLike<unknown>) => {
      const answer = await Promise.resolve(call).catch(() => undefined);
      if (answer instanceof Stream) await answer.close();
    };
    await settle(op.call(new Oz(options), values));
    const byMethod = server.journal.entries.at(-1);
    server.journal.clear();
    const core = new OzCore(options);
    await settle(op.call(nestedAt(op.clientMethod, viaCore(core)), values));
    const byFunction = server.journal.entries.at(-1);
    const keepTraceId = values.options.idempotencyKey !== undefined;
    expect(sent(byFunction, keepTraceId)).toEqual(sent(byMethod, keepTraceId));
  });

  it('answers what the Oz method answers: the result on the negotiated wire, with withResponse() and result()', async () => {
    const server = servers.create();
    const core = new OzCore({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
    const result: ExecutionResult = await toolsExecute(core, 'echo', { params: { text: 'hi' } });
    expect(result.ok).toBe(true);
    expect(typeof result.content).toBe('string');
    const markdown: string = await toolsExecute(core, 'echo', { params: { text: 'hi' } }, { format: 'markdown' });
    expect(markdown).toContain('execution_id');
    const { data, requestId } = await toolsGet(core, 'echo').withResponse();
    expect(data.name).toBe('echo');
    expect(requestId).toMatch(/./);
    const { error } = await toolsGet(core, 'no-such-tool').result();
    expect(error).toBeInstanceOf(ToolNotFoundError);
  });

  it('streams, waits on async pointers and walks pages, loading the stream and the poller on first use', async () => {
    const server = servers.create();
    const core = new OzCore({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
    const stream = await agentsExecute(core, { agent: 'writer', user_request: 'hi', stream: true });
    expect(stream).toBeInstanceOf(Stream);
    const streamed = await stream.finalResult();
    expect(streamed.ok).toBe(true);
    const pointer = await agentsExecute(core, { agent: 'writer', user_request: 'hi', async: true });
    expect(pointer.execution_id).toMatch(/./);
    const finished = await pointer.wait({ interval: 10 });
    expect(finished.execution_id).toBe(pointer.execution_id);
    const page = await executionsList(core, { limit: 1 });
    expect(page.data).toHaveLength(1);
    const ids: string[] = [];
    for await (const execution of executionsList(core, { limit: 1 })) ids.push(execution.id);
    expect(ids.length).toBeGreaterThan(1);
  });
});

describe('the transport through a standalone function', () => {
  const core = (options: Partial<funcs.OzCoreOptions> = {}) =>
    new OzCore({ apiKey: KEY, baseURL: scripted.url, logLevel: 'off', retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });

  it("throws the typed error of the answer's X-Error-Code, scrubbed of the key", async () => {
    scripted.answer({
      status: 404,
      headers: { 'x-error-code': 'tool_not_found' },
      body: { error: { code: 'tool_not_found', message: `No tool (key ${KEY})` } },
    });
    const error = await rejectionOf(toolsGet(core(), 'nope'));
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as Error).message).not.toContain(KEY);
    scripted.answer({ status: 401, body: { error: { code: 'unauthorized', message: 'bad key' } } });
    expect(await rejectionOf(toolsGet(core(), 'echo'))).toBeInstanceOf(UnauthorizedError);
  });

  it('retries twice by default with the same x-trace-id and bearer auth, then throws', async () => {
    const limited = { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'rate_limited', message: 'slow down' } } };
    scripted.answer(limited, limited, limited);
    expect(await rejectionOf(toolsExecute(core(), 'echo', { params: {} }))).toBeInstanceOf(RateLimitedError);
    expect(scripted.requests).toHaveLength(3);
    expect(new Set(scripted.requests.map((r) => r.headers['x-trace-id'])).size).toBe(1);
    expect(scripted.requests.map((r) => r.headers['x-oz-retry-count'])).toEqual(['0', '1', '2']);
    expect(scripted.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('honours maxRetries of the core and of the call', async () => {
    const failing = { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } };
    scripted.answer(failing, failing);
    await rejectionOf(toolsGet(core({ maxRetries: 1 }), 'echo'));
    expect(scripted.requests).toHaveLength(2);
    scripted.reset();
    scripted.answer(failing);
    await rejectionOf(toolsGet(core(), 'echo', { maxRetries: 0 }));
    expect(scripted.requests).toHaveLength(1);
  });

  it('refuses bad input before any request: not a core, a dot segment, a bad header, a bad option', async () => {
    expect(() => toolsGet({ baseURL: scripted.url } as OzCore, 'echo')).toThrow(OzUsageError);
    expect(() => toolsGet({ baseURL: scripted.url } as OzCore, 'echo')).toThrow(/OzCore as its first argument/);
    expect(await rejectionOf(toolsGet(core(), '..'))).toBeInstanceOf(OzUsageError);
    expect(await rejectionOf(toolsGet(core(), 'echo', { headers: { 'x-bad': 'a\nb' } }))).toBeInstanceOf(OzUsageError);
    // A core's option is refused where it is given; a call's by the call.
    expect(() => core({ maxRetries: -1 })).toThrow(OzUsageError);
    expect(await rejectionOf(toolsGet(core(), 'echo', { maxRetries: -1 }))).toBeInstanceOf(OzUsageError);
    expect(() => new OzCore({ apiKey: KEY, baseURL: 'not a url' })).toThrow(OzUsageError);
    expect(scripted.requests).toHaveLength(0);
  });

  it('keeps the key out of JSON and util.inspect', () => {
    const made = core();
    expect(JSON.stringify(made)).not.toContain(KEY);
    expect(JSON.stringify(made)).toContain('[redacted]');
    expect(made.maxRetries).toBe(2);
    expect(made.timeout).toBe(600_000);
  });
});

/** An object whose `path` (`a.b.verb`) leads to `leaf`'s verb, as a client's resources do. */
function nestedAt(path: string, leaf: Record<string, unknown>): object {
  const segments = path.split('.').slice(0, -1);
  return segments.reduceRight<Record<string, unknown>>((inner, segment) => ({ [segment]: inner }), leaf);
}
