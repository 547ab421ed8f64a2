import { afterEach, describe, expect, it } from 'vitest';
import type { AsyncPointer, Execution, ExecutionList, ExecutionResult, Trace, TraceList } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('agents and the agent call door', () => {
  it('lists and gets agents; 404 for an unknown one', async () => {
    server = createTestServer();
    const list = await callJson<{ data: Array<{ name: string; streaming: boolean }> }>(server, 'GET', '/v1/agents');
    expect(list.body.data.map((a) => a.name)).toEqual(['approver', 'writer']);
    expect((await callJson(server, 'GET', '/v1/agents/writer')).body).toMatchObject({ name: 'writer', streaming: true });
    expect((await call(server, 'GET', '/v1/agents/ghost')).status).toBe(404);
  });

  it('runs writer deterministically', async () => {
    server = createTestServer();
    const res = await callJson<ExecutionResult>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'a haiku' } });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('Here is a draft for: a haiku');
    expect(server.getExecution(res.body.execution_id)).toMatchObject({ kind: 'agent', target: 'writer', status: 'succeeded', cost_usd: 0.001 });
  });

  it('accepts a bare YAML body', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute', { body: 'agent: writer\nuser_request: from yaml\n', headers: { 'content-type': 'text/yaml' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('content: |-\n  Here is a draft for: from yaml\n');
  });

  it('answers 409 approval_required from approver unless approved: true, recording a failed execution', async () => {
    server = createTestServer();
    const refused = await callJson<ErrorBody>(server, 'POST', '/v1/execute', { body: { agent: 'approver', user_request: 'ship' } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('x-error-code')).toBe('approval_required');
    const id = refused.headers.get('x-execution-id')!;
    expect(refused.body.error.execution_id).toBe(id);
    expect(server.getExecution(id)).toMatchObject({ status: 'failed', error: { code: 'approval_required' } });
    const ok = await callJson<ExecutionResult>(server, 'POST', '/v1/execute', { body: { agent: 'approver', user_request: 'ship', approved: true } });
    expect([ok.status, ok.body.content]).toEqual([200, 'Approved: ship']);
  });

  it('answers 422 for a missing agent or user_request, and 404 for an unknown agent', async () => {
    server = createTestServer();
    const noAgent = await callJson<ErrorBody>(server, 'POST', '/v1/execute', { body: { user_request: 'x' } });
    expect([noAgent.status, noAgent.body.error.missing]).toEqual([422, ['agent']]);
    const noRequest = await callJson<ErrorBody>(server, 'POST', '/v1/execute', { body: { agent: 'writer' } });
    expect([noRequest.status, noRequest.body.error.missing]).toEqual([422, ['user_request']]);
    expect((await call(server, 'POST', '/v1/execute', { body: { agent: 'ghost', user_request: 'x' } })).status).toBe(404);
    expect((await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'x', stream: true, async: true } })).status).toBe(422);
  });
});

describe('async runs and polling', () => {
  it('answers 202 with the pointer, then polling shows queued, running, succeeded with Retry-After while unfinished', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 100, async: true } });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({
      workflow_id: null,
      execution_id: expect.stringMatching(/^exe_/),
      task_id: expect.stringMatching(/^tsk_/),
      status: 'queued',
    });
    expect(started.headers.get('x-execution-id')).toBe(started.body.execution_id);
    const poll = () => callJson<Execution>(server, 'GET', `/v1/executions/${started.body.execution_id}`);
    const queued = await poll();
    expect([queued.body.status, queued.headers.get('retry-after'), queued.headers.get('x-execution-id')]).toEqual(['queued', '1', started.body.execution_id]);
    await server.clock.advance(10);
    expect((await poll()).body.status).toBe('running');
    await server.clock.advance(100);
    const done = await poll();
    expect(done.body).toMatchObject({ status: 'succeeded', content: 'Waited 100 ms.', error: null, task_id: started.body.task_id });
    expect(done.body.finished_at).not.toBeNull();
    expect(done.headers.get('retry-after')).toBeNull();
  });

  it('lists the pointer’s keys one per line on markdown and text', async () => {
    server = createTestServer();
    for (const format of ['markdown', 'text']) {
      const res = await call(server, 'POST', `/v1/tools/echo/execute?format=${format}`, { body: { text: 'x', async: true } });
      const id = res.headers.get('x-execution-id');
      expect(res.status).toBe(202);
      expect(await res.text()).toMatch(new RegExp(`^workflow_id: null\\nexecution_id: ${id}\\ntask_id: tsk_\\w+\\nstatus: queued\\n$`));
    }
    await server.idle();
  });

  it('renders an execution record on markdown as the MCP server does, with the footer; on text only the content', async () => {
    server = createTestServer();
    const run = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'recorded' } });
    const md = await call(server, 'GET', `/v1/executions/${run.body.execution_id}?format=markdown`);
    expect(await md.text()).toBe(`recorded\n\n---\nexecution_id: ${run.body.execution_id}\n`);
    const text = await call(server, 'GET', `/v1/executions/${run.body.execution_id}?format=text`);
    expect(await text.text()).toBe('recorded');
  });

  it('cancels a queued run; a finished run is answered unchanged', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 50, async: true } });
    const cancelled = await callJson<Execution>(server, 'POST', `/v1/executions/${started.body.execution_id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    await server.idle();
    expect(server.getExecution(started.body.execution_id)!.status).toBe('cancelled');
    const done = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' } });
    const again = await callJson<Execution>(server, 'POST', `/v1/executions/${done.body.execution_id}/cancel`);
    expect(again.body.status).toBe('succeeded');
  });

  it('cancels a running async workflow between tasks', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/workflows/draft-and-review/execute', { body: { input: 'x', async: true } });
    expect(started.body.workflow_id).toMatch(/^wfl_/);
    await server.clock.advance(20);
    expect(server.getExecution(started.body.execution_id)!.status).toBe('running');
    await callJson(server, 'POST', `/v1/executions/${started.body.execution_id}/cancel`);
    await server.idle();
    expect(server.getExecution(started.body.execution_id)).toMatchObject({ status: 'cancelled', content: null });
  });

  it('answers 404 execution_not_found for an unknown execution or one of another account', async () => {
    server = createTestServer();
    expect((await call(server, 'GET', '/v1/executions/exe_nope')).status).toBe(404);
    const run = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' } });
    expect((await call(server, 'GET', `/v1/executions/${run.body.execution_id}`, { key: server.keys.otherApiKey })).status).toBe(404);
    expect((await call(server, 'POST', '/v1/executions/exe_nope/cancel')).status).toBe(404);
  });

  it('lists executions newest first, filtered by status and kind; 422 for an unknown filter', async () => {
    server = createTestServer();
    const a = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'a' } });
    const b = await callJson<ExecutionResult>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'b' } });
    await call(server, 'POST', '/v1/execute', { body: { agent: 'approver', user_request: 'c' } });
    const all = await callJson<ExecutionList>(server, 'GET', '/v1/executions');
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[2]!.id).toBe(a.body.execution_id);
    expect((await callJson<ExecutionList>(server, 'GET', '/v1/executions?kind=agent&status=succeeded')).body.data.map((e) => e.id)).toEqual([
      b.body.execution_id,
    ]);
    expect((await callJson<ExecutionList>(server, 'GET', '/v1/executions?status=failed')).body.data).toHaveLength(1);
    expect((await call(server, 'GET', '/v1/executions?status=lost')).status).toBe(422);
    expect((await call(server, 'GET', '/v1/executions?kind=robot')).status).toBe(422);
  });
});

describe('follow-up', () => {
  it('starts a new execution of the run’s agent with user_request', async () => {
    server = createTestServer();
    const first = await callJson<ExecutionResult>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'a poem' } });
    const follow = await callJson<ExecutionResult>(server, 'POST', `/v1/executions/${first.body.execution_id}/followup`, { body: { user_request: 'shorter' } });
    expect(follow.status).toBe(200);
    expect(follow.body.content).toBe('Here is a draft for: shorter');
    expect(follow.body.execution_id).not.toBe(first.body.execution_id);
    const asyncFollow = await callJson<AsyncPointer>(server, 'POST', `/v1/executions/${first.body.execution_id}/followup`, {
      body: { user_request: 'again', async: true },
    });
    expect(asyncFollow.status).toBe(202);
    await server.idle();
  });

  it('answers 422 without user_request, for a tool run or an unfinished run; 404 for an unknown one', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const tool = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' } });
    expect((await callJson<ErrorBody>(server, 'POST', `/v1/executions/${tool.body.execution_id}/followup`, { body: {} })).body.error.missing).toEqual([
      'user_request',
    ]);
    expect((await call(server, 'POST', `/v1/executions/${tool.body.execution_id}/followup`, { body: { user_request: 'x' } })).status).toBe(422);
    const pending = await callJson<AsyncPointer>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'x', async: true } });
    expect((await call(server, 'POST', `/v1/executions/${pending.body.execution_id}/followup`, { body: { user_request: 'y' } })).status).toBe(422);
    expect((await call(server, 'POST', '/v1/executions/exe_nope/followup', { body: { user_request: 'y' } })).status).toBe(404);
    await server.idle();
  });
});

describe('idempotency: x-trace-id', () => {
  it('becomes the execution id as given; a replay answers 409 duplicate_execution_id with X-Execution-Id', async () => {
    server = createTestServer();
    const headers = { 'x-trace-id': 'trace-42' };
    const first = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'once' }, headers });
    expect([first.body.execution_id, first.headers.get('x-execution-id')]).toEqual(['trace-42', 'trace-42']);
    const replay = await callJson<ErrorBody>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'once' }, headers });
    expect(replay.status).toBe(409);
    expect(replay.headers.get('x-error-code')).toBe('duplicate_execution_id');
    expect(replay.headers.get('x-execution-id')).toBe('trace-42');
    expect(replay.body.error.execution_id).toBeUndefined();
    expect((await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'x' }, headers })).status).toBe(409);
    expect((await call(server, 'POST', '/v1/schedules', { body: {} })).status).toBe(422);
  });

  it('does not spend a trace id on a request that failed validation', async () => {
    server = createTestServer();
    const headers = { 'x-trace-id': 'trace-7' };
    expect((await call(server, 'POST', '/v1/tools/echo/execute', { body: {}, headers })).status).toBe(422);
    expect((await call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers })).status).toBe(200);
    expect((await call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers: { 'x-trace-id': 'x'.repeat(256) } })).status).toBe(422);
  });
});

describe('traces', () => {
  it('records spans of an execution: a root span, and one per workflow task', async () => {
    server = createTestServer();
    const run = await callJson<ExecutionResult>(server, 'POST', '/v1/workflows/draft-and-review/execute', { body: { input: 'topic' } });
    const trace = await callJson<Trace>(server, 'GET', `/v1/traces/${run.body.execution_id}`);
    expect(trace.body.execution_id).toBe(run.body.execution_id);
    expect(trace.headers.get('x-execution-id')).toBe(run.body.execution_id);
    const [root, draft, review] = trace.body.spans;
    expect(root).toMatchObject({ parent_id: null, name: 'workflow draft-and-review', status: 'ok' });
    expect(draft).toMatchObject({ parent_id: root!.id, name: 'task draft', status: 'ok', attributes: { agent: 'writer' } });
    expect(review).toMatchObject({ parent_id: root!.id, name: 'task review' });
    const list = await callJson<TraceList>(server, 'GET', '/v1/traces');
    expect(list.body.data[0]!.execution_id).toBe(run.body.execution_id);
    expect((await call(server, 'GET', '/v1/traces/exe_nope')).status).toBe(404);
  });
});
