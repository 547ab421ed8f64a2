import { afterEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';
import { call } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('execute streams', () => {
  it('streams writer token by token, then exactly one result event', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'three small words', stream: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const id = res.headers.get('x-execution-id');
    expect(id).toMatch(/^exe_/);
    const { events } = await readEvents(res);
    const tokens = events.filter((e) => e.event === 'token').map((e) => (JSON.parse(e.data) as { delta: string }).delta);
    expect(tokens).toEqual(['Here ', 'is ', 'a ', 'draft ', 'for: ', 'three ', 'small ', 'words']);
    const last = events[events.length - 1]!;
    expect(last.event).toBe('result');
    expect(JSON.parse(last.data)).toEqual({ ok: true, content: tokens.join(''), execution_id: id, request_id: res.headers.get('x-request-id') });
    expect(server.getExecution(id!)!.status).toBe('succeeded');
  });

  it('ends with an error event when the run fails (approver without approval)', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute', { body: { agent: 'approver', user_request: 'ship', stream: true } });
    const { events } = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual(['error']);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ error: { code: 'approval_required', execution_id: res.headers.get('x-execution-id') } });
  });

  it('ignores the wire choice: format and Accept do not apply to a stream', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute?format=nonsense', {
      body: { agent: 'writer', user_request: 'x', stream: true, format: 'yaml' },
      headers: { accept: 'text/markdown' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await readEvents(res);
  });

  it('answers request errors before the stream as ordinary errors', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', stream: true } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('streams an inline workflow with step events around each task', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/workflows/execute-stream', {
      body: {
        workflow: {
          name: 'pair',
          tasks: [
            { id: 'a', type: 'task', agent: 'writer' },
            { id: 'b', type: 'task', agent: 'writer', user_request: 'ok' },
          ],
        },
        input: 'go',
      },
    });
    const { events } = await readEvents(res);
    const shape = events
      .filter((e) => e.event !== 'token')
      .map((e) => (e.event === 'step' ? `${JSON.parse(e.data).task_id}:${JSON.parse(e.data).status}` : e.event));
    expect(shape).toEqual(['a:started', 'a:succeeded', 'b:started', 'b:succeeded', 'result']);
    expect(JSON.parse(events[events.length - 1]!.data).content).toBe('Here is a draft for: ok');
  });

  it('streams a stored workflow; a failing task sends step failed, then error', async () => {
    server = createTestServer();
    const ok = await readEvents(await call(server, 'POST', '/v1/workflows/draft-and-review/execute-stream', { body: { input: 'x' } }));
    expect(ok.events.filter((e) => e.event === 'step')).toHaveLength(4);
    server.addWorkflow({ account: 'demo', name: 'gated', tasks: [{ id: 'gate', type: 'task', agent: 'approver' }] });
    const bad = await readEvents(await call(server, 'POST', '/v1/workflows/gated/execute-stream', { body: { input: 'x' } }));
    expect(bad.events.map((e) => (e.event === 'step' ? JSON.parse(e.data).status : e.event))).toEqual(['started', 'failed', 'error']);
    expect((await call(server, 'POST', '/v1/workflows/ghost/execute-stream', { body: {} })).status).toBe(404);
  });

  it('sends : ping comments during a quiet stream', async () => {
    server = createTestServer({ timing: { pingMs: 5 } });
    server.addAgent({
      name: 'pondering',
      handler: async (_input, ctx) => {
        await ctx.sleep(30);
        return 'done';
      },
    });
    const { comments, events } = await readEvents(await call(server, 'POST', '/v1/execute', { body: { agent: 'pondering', user_request: 'x', stream: true } }));
    expect(comments.filter((c) => c.trim() === 'ping').length).toBeGreaterThan(0);
    expect(events[events.length - 1]!.event).toBe('result');
  });

  it('sends only the closing event for an agent that does not stream', async () => {
    server = createTestServer();
    server.addAgent({ name: 'quiet', streaming: false, handler: () => 'all at once' });
    const { events } = await readEvents(await call(server, 'POST', '/v1/execute', { body: { agent: 'quiet', user_request: 'x', stream: true } }));
    expect(events.map((e) => e.event)).toEqual(['result']);
  });
});
