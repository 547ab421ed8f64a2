import { getEventListeners } from 'node:events';
import yaml from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import {
  InvalidParamsError,
  Oz,
  OzAbortError,
  ExecutionCancelledError,
  OzTimeoutError,
  OzUsageError,
  OzWaitTimeoutError,
  RouteNotFoundError,
  UpstreamError,
  type AsyncPointer,
  type Execution,
  type PointerWait,
} from '../../src/index.js';
import { KEY } from '../core/support/clients.js';
import { executionRecord } from '../core/support/executionRecord.js';
import { ScriptedServer, type RecordedRequest, type ScriptedAnswer } from '../core/support/scriptedServer.js';
import { rejectionOf } from '../core/support/sse.js';

const server = ScriptedServer.forSuite();

const ID = 'exe_poll1';
const client = (options: ConstructorParameters<typeof Oz>[0] = {}) => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', ...options });

const record = (status: Execution['status'], extra: Partial<Execution> = {}): Execution =>
  executionRecord(ID, status, { kind: 'agent', target: 'writer', content: status === 'succeeded' ? 'the answer' : null, ...extra });
const poll = (status: Execution['status'], headers: Record<string, string> = {}, extra: Partial<Execution> = {}): ScriptedAnswer => ({
  headers: { 'x-request-id': `req_${status}`, 'x-execution-id': ID, ...headers },
  body: record(status, extra),
});
const pointerBody = { workflow_id: null, execution_id: ID, task_id: null, status: 'queued' } as const;
const pointerAnswer: ScriptedAnswer = { status: 202, headers: { 'x-execution-id': ID }, body: pointerBody };
const fast = { interval: 1 };

/** The gaps in milliseconds between consecutive recorded requests. */
const gaps = (requests: RecordedRequest[]) => requests.slice(1).map((request, i) => request.at - requests[i]!.at);

describe('executions.wait', () => {
  it('polls GET /v1/executions/{id} until succeeded and answers the result envelope; onProgress sees every record', async () => {
    server.answer(poll('queued'), poll('running'), poll('succeeded'));
    const seen: string[] = [];
    const result = await client().executions.wait(ID, { ...fast, onProgress: (r) => void seen.push(r.status) });
    expect(result).toEqual({ ok: true, content: 'the answer', execution_id: ID, request_id: 'req_succeeded' });
    expect(seen).toEqual(['queued', 'running', 'succeeded']);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(Array(3).fill(`GET /v1/executions/${ID}?format=json`));
  });

  it('waits for an async onProgress, and fails with what it throws', async () => {
    server.answer(poll('running'), poll('succeeded'));
    const order: string[] = [];
    await client().executions.wait(ID, {
      ...fast,
      onProgress: async (r) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(r.status);
      },
    });
    expect(order).toEqual(['running', 'succeeded']);

    server.answer(poll('running'));
    const boom = new Error('progress failed');
    expect(
      await rejectionOf(
        client().executions.wait(ID, {
          onProgress: () => {
            throw boom;
          },
        }),
      ),
    ).toBe(boom);
  });

  it('honours Retry-After (seconds, or retry-after-ms) between polls, whatever the interval', async () => {
    server.answer(poll('running', { 'retry-after': '0.15' }), poll('running', { 'retry-after-ms': '120' }), poll('succeeded'));
    await client().executions.wait(ID, fast);
    const [first, second] = gaps(server.requests);
    expect(first).toBeGreaterThanOrEqual(145);
    expect(second).toBeGreaterThanOrEqual(115);
  });

  it('backs off without Retry-After: each interval 1.5 times the one before, up to maxInterval', async () => {
    server.answer(poll('running'), poll('running'), poll('running'), poll('running'), poll('succeeded'));
    await client().executions.wait(ID, { interval: 20, maxInterval: 45 });
    const observed = gaps(server.requests);
    [20, 30, 45, 45].forEach((least, i) => expect(observed[i]).toBeGreaterThanOrEqual(least - 2));
  });

  it.each([
    [{ code: 'invalid_params', message: 'text is required', missing: ['text'] }, InvalidParamsError, 422],
    [{ code: 'upstream_error', message: 'company service down' }, UpstreamError, 502],
  ] as const)('a failed run throws the typed error of its error (%o)', async (error, Class, status) => {
    server.answer(poll('running'), poll('failed', {}, { error: structuredClone(error) as Execution['error'] }));
    const thrown = await rejectionOf(client().executions.wait(ID, fast));
    expect(thrown).toBeInstanceOf(Class);
    expect(thrown).toMatchObject({ status, code: error.code, executionId: ID, requestId: 'req_failed', message: `${status} ${error.code}: ${error.message}` });
    if ('missing' in error) expect((thrown as InvalidParamsError).missing).toEqual(['text']);
  });

  it('a cancelled run throws ExecutionCancelledError', async () => {
    server.answer(poll('cancelled'));
    const thrown = await rejectionOf(client().executions.wait(ID));
    expect(thrown).toBeInstanceOf(ExecutionCancelledError);
    expect(thrown).toMatchObject({ executionId: ID });
  });

  it('throws OzWaitTimeoutError when its timeout passes between polls, or mid-request', async () => {
    server.fallback = poll('running');
    const between = await rejectionOf(client().executions.wait(ID, { interval: 10, timeout: 80 }));
    expect(between).toBeInstanceOf(OzWaitTimeoutError);
    expect(between).toBeInstanceOf(OzTimeoutError);
    expect(between).toMatchObject({ executionId: ID, timeout: 80, lastStatus: 'running' });

    server.reset();
    server.fallback = { ...poll('running'), delayMs: 5000 };
    // Another id: a poll of the first wait still on its way must not count as one of this wait's.
    const other = `${ID}_mid`;
    const midRequest = await rejectionOf(client().executions.wait(other, { timeout: 50 }));
    expect(midRequest).toBeInstanceOf(OzWaitTimeoutError);
    expect(midRequest).toMatchObject({ lastStatus: undefined });
    expect(server.requests.filter((r) => r.url.includes(other))).toHaveLength(1);
  });

  it('aborting the signal stops the wait at once, mid-request or between polls, and removes its listener', async () => {
    // No clock decides this test: the poll's answer and the next poll are both minutes away, so only the abort can
    // end either wait before the test's own timeout (a wait that ignored the abort fails the test by hanging).
    const never = 10 * 60_000;
    server.fallback = { ...poll('running'), delayMs: never };
    const midRequest = new AbortController();
    const pending = rejectionOf(client().executions.wait(ID, { signal: midRequest.signal }));
    // Aborted once the poll is at the server, whose answer is held: the wait is mid-request, however loaded the machine.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 15_000 });
    midRequest.abort();
    expect(await pending).toBeInstanceOf(OzAbortError);
    expect(getEventListeners(midRequest.signal, 'abort')).toHaveLength(0);

    server.reset();
    server.fallback = poll('running');
    const between = new AbortController();
    const progress: string[] = [];
    const waiting = client().executions.wait(ID, {
      interval: never,
      signal: between.signal,
      // The first poll's record arrives; the next poll is ten minutes away: the abort lands between the two.
      onProgress: (execution) => {
        progress.push(execution.status);
        setImmediate(() => between.abort());
      },
    });
    expect(await rejectionOf(waiting)).toBeInstanceOf(OzAbortError);
    expect(progress).toEqual(['running']);
    expect(server.requests).toHaveLength(1);
    expect(getEventListeners(between.signal, 'abort')).toHaveLength(0);

    const already = AbortSignal.abort();
    expect(await rejectionOf(client().executions.wait(ID, { signal: already }))).toBeInstanceOf(OzAbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('leaves no listener on a shared signal over many waits that succeed, fail, time out or abort', async () => {
    const shared = new AbortController();
    const oz = client();
    for (let i = 0; i < 15; i++) {
      server.answer(poll('running'), poll('succeeded'));
      await oz.executions.wait(ID, { ...fast, signal: shared.signal });
      server.answer(poll('failed', {}, { error: { code: 'invalid_params', message: 'x' } }));
      await rejectionOf(oz.executions.wait(ID, { signal: shared.signal }));
      server.answer({ ...poll('running'), delayMs: 1000 });
      // Long enough for the poll to reach the server first: an abandoned request that arrived late would take
      // the next test's scripted answer.
      await rejectionOf(oz.executions.wait(ID, { signal: shared.signal, timeout: 100 }));
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    await vi.waitFor(() => expect(server.requests).toHaveLength(15 * 4));
  });

  it('a poll error ends the wait; a retryable one is retried by the transport', async () => {
    server.answer({ status: 404, headers: { 'x-error-code': 'not_found' }, body: { error: { code: 'not_found', message: 'no such execution' } } });
    expect(await rejectionOf(client().executions.wait('exe_ghost'))).toBeInstanceOf(RouteNotFoundError);

    server.answer(
      { status: 503, headers: { 'x-error-code': 'not_enabled', 'retry-after': '0' }, body: { error: { code: 'not_enabled', message: 'later' } } },
      poll('succeeded'),
    );
    expect(await client().executions.wait(ID)).toMatchObject({ content: 'the answer' });
  });

  it('needs an id or an object with execution_id, and sane options; nothing is sent otherwise', async () => {
    const oz = client();
    for (const bad of ['', '  ', {}, null, { execution_id: 42 }] as unknown as string[]) {
      await expect(oz.executions.wait(bad)).rejects.toBeInstanceOf(OzUsageError);
    }
    await expect(oz.executions.wait(ID, { timeout: 0 })).rejects.toBeInstanceOf(OzUsageError);
    await expect(oz.executions.wait(ID, { interval: -1 })).rejects.toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('waiting from an async pointer', () => {
  type Waitable = AsyncPointer & { wait: PointerWait };

  it('an async execute call answers a typed pointer with a non-enumerable wait()', async () => {
    server.answer(pointerAnswer, poll('running'), poll('succeeded'));
    const pointer = await client().agents.execute({ agent: 'writer', user_request: 'hi', async: true });
    expect(pointer).toEqual(pointerBody);
    expect(pointer).toStrictEqual({ ...pointerBody });
    expect(JSON.parse(JSON.stringify(pointer))).toEqual(pointerBody);
    expect(Object.keys(pointer)).toEqual(['workflow_id', 'execution_id', 'task_id', 'status']);
    expect(await (pointer as Waitable).wait(fast)).toEqual({ ok: true, content: 'the answer', execution_id: ID, request_id: 'req_succeeded' });
    expect(server.requests.slice(1).every((r) => r.path === `/v1/executions/${ID}`)).toBe(true);
  });

  it.each([
    ['yaml', 'text/yaml', yaml.dump(pointerBody)],
    ['markdown', 'text/markdown', `workflow_id: null\nexecution_id: ${ID}\ntask_id: null\nstatus: queued\n`],
    ['text', 'text/plain', `workflow_id: null\nexecution_id: ${ID}\ntask_id: null\nstatus: running\n`],
  ] as const)('a pointer answered on the %s wire can wait too', async (format, type, body) => {
    server.answer({ status: 202, headers: { 'content-type': type }, body }, poll('succeeded'));
    const pointer = await client().tools.execute('echo', { params: { text: 'x' }, async: true }, { format });
    expect(pointer.execution_id).toBe(ID);
    expect(await (pointer as Waitable).wait()).toMatchObject({ content: 'the answer' });
    expect(server.requests[1]!.query.get('format')).toBe('json');
  });

  it("the pointer's wait() reuses the call's key, headers and base address, not its signal or format", async () => {
    const other = 'ozk_OtherKey0123456789abcdefghijklmn';
    const controller = new AbortController();
    server.answer({ ...pointerAnswer, headers: { 'content-type': 'application/json' } }, poll('succeeded'));
    const pointer = (await client().agents.execute(
      { agent: 'writer', user_request: 'hi', async: true },
      { apiKey: other, headers: { 'x-tenant': 't1' }, signal: controller.signal, format: 'yaml' },
    )) as Waitable;
    controller.abort();
    await pointer.wait();
    const polled = server.requests[1]!;
    expect(polled.headers.authorization).toBe(`Bearer ${other}`);
    expect(polled.headers['x-tenant']).toBe('t1');
    expect(polled.query.get('format')).toBe('json');
  });

  it('a pointer stored as YAML (or JSON) and read back waits through client.executions.wait', async () => {
    server.answer(pointerAnswer, poll('succeeded'), poll('succeeded'));
    const oz = client();
    const pointer = await oz.workflows.execute({ workflow: { name: 'w', tasks: [] }, async: true });
    const stored = yaml.dump(pointer);
    expect(stored).not.toContain('wait');
    const loaded = yaml.load(stored, { schema: yaml.JSON_SCHEMA }) as AsyncPointer;
    expect('wait' in loaded).toBe(false);
    expect(await oz.executions.wait(loaded, fast)).toMatchObject({ execution_id: ID, content: 'the answer' });
    expect(await oz.executions.wait(JSON.parse(JSON.stringify(pointer)) as AsyncPointer)).toMatchObject({ execution_id: ID });
  });

  it('a pointer recovered after a lost answer carries wait() too', async () => {
    server.answer(
      { destroy: true },
      { status: 409, headers: { 'x-error-code': 'duplicate_execution_id' }, body: { error: { code: 'duplicate_execution_id', message: 'used' } } },
      poll('running'),
      poll('succeeded'),
    );
    const oz = new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off' });
    const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'hi', async: true }, { idempotencyKey: ID });
    expect(pointer).toEqual({ workflow_id: null, execution_id: ID, task_id: null, status: 'running' });
    expect(await (pointer as Waitable).wait()).toMatchObject({ content: 'the answer' });
  });
});
