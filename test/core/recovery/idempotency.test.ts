import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ConnectionRequiredError,
  DuplicateExecutionIdError,
  OzAbortError,
  ExecutionCancelledError,
  OzTimeoutError,
  RouteNotFoundError,
  type ExecuteStreamEvent,
} from '../../../src/index.js';
import { envelope, fastClient, KEY, recordingLogger, rejectionOf } from '../support/clients.js';
import { executionRecord } from '../support/executionRecord.js';
import { ScriptedServer, type RecordedRequest, type ScriptedAnswer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const record = executionRecord;

/**
 * A fake service that runs a job once per x-trace-id: the first POST of a trace id runs the job and then loses
 * its answer (the socket is destroyed); a POST of a known trace id answers 409 duplicate_execution_id; the
 * record route answers `running` `pending` times (with Retry-After: 0), then the finished record.
 */
function onceService(options: { pending?: number; finished?: (id: string) => Record<string, unknown> } = {}) {
  const runs = new Map<string, number>();
  let polls = 0;
  const answer = (request: RecordedRequest): ScriptedAnswer => {
    const trace = String(request.headers['x-trace-id']);
    if (request.method === 'POST') {
      if (runs.has(trace)) {
        return {
          status: 409,
          headers: { 'x-error-code': 'duplicate_execution_id', 'x-execution-id': trace },
          body: { error: { code: 'duplicate_execution_id', message: `trace id ${trace} was already used` } },
        };
      }
      runs.set(trace, (runs.get(trace) ?? 0) + 1);
      return { destroy: true };
    }
    const id = decodeURIComponent(request.path.split('/').pop()!);
    polls += 1;
    if (polls <= (options.pending ?? 0)) return { headers: { 'retry-after': '0', 'x-request-id': `req_poll${polls}` }, body: record(id, 'running') };
    return { headers: { 'x-request-id': 'req_record' }, body: options.finished?.(id) ?? record(id, 'succeeded') };
  };
  return { runs, answer, polls: () => polls };
}

describe('x-trace-id', () => {
  it('is sent on every execute call, generated when the caller gives none, and differs per call', async () => {
    server.fallback = () => ({ body: envelope('ok') });
    const client = fastClient(server);
    await client.tools.execute('echo', { text: 'a' });
    await client.agents.execute({ agent: 'writer', user_request: 'hi' });
    await client.workflows.execute({ workflow: { name: 'w', tasks: [] } });
    await client.workflows.executeStored('draft-and-review', {});
    await client.executions.followup('exe_9', { user_request: 'more' });
    server.answer({ status: 202, body: { workflow_id: null, execution_id: 'exe_s', task_id: null, status: 'queued' } });
    await client.schedules.run('sch_1');
    const traces = server.requests.map((r) => r.headers['x-trace-id']);
    expect(traces).toHaveLength(6);
    for (const trace of traces) expect(trace).toMatch(/^exe_[A-Za-z0-9]{32}$/);
    expect(new Set(traces).size).toBe(6);
  });

  it("sends the caller's idempotencyKey as given", async () => {
    server.answer({ body: envelope('ok') });
    await fastClient(server).tools.execute('echo', { text: 'a' }, { idempotencyKey: 'order-2026/11/21#7' });
    expect(server.requests[0]!.headers['x-trace-id']).toBe('order-2026/11/21#7');
  });

  it('is not generated for calls that are not execute calls', async () => {
    server.answer({ body: { id: 'itm_1' } });
    await fastClient(server).companies.items.get('acme', 'itm_1');
    expect(server.requests[0]!.headers['x-trace-id']).toBeUndefined();
  });
});

describe('a lost answer (409 duplicate_execution_id on a retry)', () => {
  it("returns the first run's result, runs the job once, and waits while it is still running", async () => {
    const service = onceService({ pending: 2 });
    server.fallback = service.answer;
    const logger = recordingLogger();
    const { data, requestId } = await fastClient(server, { logger, logLevel: 'warn' })
      .tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'exe_lost1' })
      .withResponse();
    expect(data).toEqual({ ok: true, content: 'first run result', execution_id: 'exe_lost1', request_id: 'req_record' });
    expect(requestId).toBe('req_record');
    expect(service.runs.get('exe_lost1')).toBe(1);
    expect(service.runs.size).toBe(1);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/tools/echo/execute',
      'POST /v1/tools/echo/execute',
      'GET /v1/executions/exe_lost1',
      'GET /v1/executions/exe_lost1',
      'GET /v1/executions/exe_lost1',
    ]);
    expect(server.requests[2]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[2]!.query.get('format')).toBe('json');
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('exe_lost1'))).toBe(true);
  });

  it('works with a generated trace id too', async () => {
    const service = onceService();
    server.fallback = service.answer;
    const result = await fastClient(server).tools.execute('echo', { text: 'hi' });
    expect(result.content).toBe('first run result');
    expect(result.execution_id).toMatch(/^exe_[A-Za-z0-9]{32}$/);
    expect([...service.runs.values()]).toEqual([1]);
  });

  it('answers on the caller wire: markdown with the footer, text bare, yaml as the envelope', async () => {
    const service = onceService();
    server.fallback = service.answer;
    const client = fastClient(server);
    const markdown = await client.tools.execute('echo', { text: 'hi' }, { format: 'markdown', idempotencyKey: 'exe_md' });
    expect(markdown).toBe('first run result\n\n---\nexecution_id: exe_md\n');
    const text = await client.tools.execute('echo', { text: 'hi' }, { format: 'text', idempotencyKey: 'exe_txt' });
    expect(text).toBe('first run result');
    const yaml = await client.tools.execute('echo', { text: 'hi' }, { format: 'yaml', idempotencyKey: 'exe_yml' });
    expect(yaml).toEqual({ ok: true, content: 'first run result', execution_id: 'exe_yml', request_id: 'req_record' });
    expect([...service.runs.values()]).toEqual([1, 1, 1]);
  });

  it('answers the first run as an async pointer for an async call', async () => {
    const service = onceService({ pending: 5 });
    server.fallback = service.answer;
    const pointer = await fastClient(server).tools.execute('slow', { ms: 10, async: true }, { idempotencyKey: 'exe_async', format: 'text' });
    expect(pointer).toEqual({ workflow_id: null, execution_id: 'exe_async', task_id: null, status: 'running' });
    expect(service.polls()).toBe(1);
  });

  it("throws the typed error of the first run's failure", async () => {
    const service = onceService({
      finished: (id) =>
        record(id, 'failed', {
          error: {
            code: 'connection_required',
            message: 'Link crm first.',
            connect: { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' },
          },
        }),
    });
    server.fallback = service.answer;
    const error = await rejectionOf(fastClient(server).tools.execute('crm_lookup', { q: 'x' }, { idempotencyKey: 'exe_fail' }));
    expect(error).toBeInstanceOf(ConnectionRequiredError);
    expect(error).toMatchObject({ status: 424, code: 'connection_required', executionId: 'exe_fail', connect: { provider: 'crm', method: 'oauth' } });
    expect([...service.runs.values()]).toEqual([1]);
  });

  it('throws ExecutionCancelledError for a cancelled first run', async () => {
    server.fallback = onceService({ finished: (id) => record(id, 'cancelled') }).answer;
    const error = await rejectionOf(fastClient(server).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_cxl' }));
    expect(error).toBeInstanceOf(ExecutionCancelledError);
    expect((error as ExecutionCancelledError).executionId).toBe('exe_cxl');
  });

  it('gives up waiting after one attempt timeout with OzTimeoutError naming the execution', async () => {
    server.fallback = onceService({ pending: 1_000_000 }).answer;
    const error = await rejectionOf(
      fastClient(server, { pollIntervalMs: 40 }).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_slow', timeout: 150 }),
    );
    expect(error).toBeInstanceOf(OzTimeoutError);
    expect((error as Error).message).toContain('exe_slow');
  });

  it('stops waiting at once when the signal aborts', async () => {
    const service = onceService({ pending: 1_000_000 });
    server.fallback = service.answer;
    const controller = new AbortController();
    const call = fastClient(server, { pollIntervalMs: 20 }).tools.execute('echo', { text: 'x' }, { signal: controller.signal });
    while (service.polls() < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(OzAbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 4000);

  it('propagates a failure to read the record', async () => {
    const service = onceService();
    server.fallback = (request) =>
      request.method === 'GET'
        ? { status: 404, headers: { 'x-error-code': 'not_found' }, body: { error: { code: 'not_found', message: 'no such execution' } } }
        : service.answer(request);
    await expect(fastClient(server).tools.execute('echo', { text: 'x' })).rejects.toBeInstanceOf(RouteNotFoundError);
  });

  it('replays the first run as stream events for a stream call', async () => {
    server.fallback = onceService().answer;
    const stream = await fastClient(server).agents.execute({ agent: 'writer', user_request: 'hi', stream: true }, { idempotencyKey: 'exe_stream' });
    const events: ExecuteStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events).toEqual([
      { event: 'token', data: { delta: 'first run result' } },
      { event: 'result', data: { ok: true, content: 'first run result', execution_id: 'exe_stream', request_id: 'req_record' } },
    ]);
    expect(stream.response.headers.get('x-execution-id')).toBe('exe_stream');
  });

  it('throws DuplicateExecutionIdError when the first attempt answers 409', async () => {
    server.answer({
      status: 409,
      headers: { 'x-error-code': 'duplicate_execution_id', 'x-execution-id': 'exe_used' },
      body: { error: { code: 'duplicate_execution_id', message: 'already used' } },
    });
    const error = await rejectionOf(fastClient(server).tools.execute('echo', { text: 'x' }, { idempotencyKey: 'exe_used' }));
    expect(error).toBeInstanceOf(DuplicateExecutionIdError);
    expect(error).toMatchObject({ status: 409, code: 'duplicate_execution_id', executionId: 'exe_used' });
    expect(server.requests).toHaveLength(1);
  });
});
