/**
 * A run queued or running when the state was saved is taken up again when the state is loaded, so `wait()` ends
 * (the contract's "Trust at the edges, round 3"): in process (`exportState` / `importState`) and through a real
 * `oz-mock --state FILE` stopped with SIGTERM and started again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { InvalidParamsError, Oz } from '../../../src/index.js';
import type { OzServer, OzStateDocument } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { startOzMock, type SpawnedOzMock } from '../control/spawnOzMock.js';
import { callJson } from '../support/serverCall.js';

const servers = testServersForSuite();

function clientOf(server: OzServer): Oz {
  return new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
}

/** A server with a frozen clock and a fixed key, so a client of one server's state reaches the other's. */
function frozenServer(): OzServer {
  return servers.create({ clock: { frozen: true }, apiKey: 'ozk_ResumeResumeResumeResumeResume12' });
}

describe('importState() takes up the runs in flight', () => {
  it('a queued agent run: wait() on the new server answers its result, charged once', async () => {
    const before = frozenServer();
    const oz = clientOf(before);
    const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'later', async: true });
    const doc = before.exportState();
    expect(doc.executions.find((e) => e.id === pointer.execution_id)).toMatchObject({ status: 'queued' });
    await before.close();

    const after = frozenServer();
    after.importState(doc);
    await after.idle();
    expect(await clientOf(after).executions.wait(pointer.execution_id)).toMatchObject({
      ok: true,
      content: 'Here is a draft for: later',
      execution_id: pointer.execution_id,
    });
    expect(after.getExecution(pointer.execution_id)).toMatchObject({ status: 'succeeded', task_id: pointer.task_id, cost_usd: 0.001 });
    expect(after.wallet('demo').spent_usd).toBeCloseTo(doc.accounts.find((a) => a.name === 'demo')!.wallet.spent_micros / 1e6 + 0.001, 6);
  });

  it('a running inline workflow starts again from its first task, with the tasks its record holds', async () => {
    const before = frozenServer();
    const started = await callJson(before, 'POST', '/v1/workflows/execute', {
      body: {
        name: 'two',
        async: true,
        input: 'topic',
        tasks: [
          { id: 'a', type: 'task', agent: 'writer' },
          { id: 'b', type: 'task', agent: 'writer', user_request: 'Review: {input}' },
        ],
      },
    });
    const id = (started.body as { execution_id: string }).execution_id;
    // One step: the run begins (its first task waits for the next step).
    await before.clock.advance(10);
    await new Promise((r) => setImmediate(r));
    const doc = before.exportState();
    const saved = doc.executions.find((e) => e.id === id)!;
    expect(saved.status).toBe('running');
    expect(saved.tasks).toEqual([
      { id: 'a', agent: 'writer', fields: {} },
      { id: 'b', agent: 'writer', fields: { user_request: 'Review: {input}' } },
    ]);
    await before.close();

    const after = frozenServer();
    after.importState(doc);
    expect(after.getExecution(id)).toMatchObject({ status: 'queued' });
    await after.idle();
    expect(await clientOf(after).executions.wait(id)).toMatchObject({ ok: true, content: 'Here is a draft for: Review: Here is a draft for: topic' });
    // Started again: one root span and one span per task, not the interrupted run's too.
    const trace = await clientOf(after).traces.get(id);
    expect(trace.spans.map((s) => s.name)).toEqual(['workflow two', 'task a', 'task b']);
  });

  it('a run whose tasks are gone fails with invalid_params, and wait() throws its class', async () => {
    const before = frozenServer();
    const started = await callJson(before, 'POST', '/v1/workflows/execute', {
      body: { name: 'lost', async: true, tasks: [{ id: 'a', type: 'task', agent: 'writer' }] },
    });
    const id = (started.body as { execution_id: string }).execution_id;
    const doc = before.exportState();
    await before.close();
    const { tasks: _tasks, ...withoutTasks } = doc.executions.find((e) => e.id === id)!;
    const edited: OzStateDocument = { ...doc, executions: doc.executions.map((e) => (e.id === id ? withoutTasks : e)) };

    const after = frozenServer();
    after.importState(edited);
    expect(after.getExecution(id)).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_params', message: `Execution ${id} of workflow lost holds no tasks to run again.` },
    });
    await expect(clientOf(after).executions.wait(id)).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it('an agent that is gone fails the run with agent_not_found', async () => {
    const before = frozenServer();
    before.addAgent({ name: 'temp', handler: () => 'temp answer' });
    const pointer = await clientOf(before).agents.execute({ agent: 'temp', user_request: 'x', async: true });
    const doc = before.exportState();
    await before.close();
    const after = frozenServer();
    // A code agent the new server also has, then taken away: the document names it, the catalog no longer holds it.
    after.addAgent({ name: 'temp', handler: () => 'temp answer' });
    after.importState({ ...doc, agents: doc.agents.filter((a) => a.name !== 'temp') });
    expect(after.getExecution(pointer.execution_id)).toMatchObject({ status: 'failed', error: { code: 'agent_not_found' } });
  });
});

describe('oz-mock --state FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oz-mock-resume-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const started: SpawnedOzMock[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((m) => m.stop()));
  });
  const apiKey = 'ozk_ProcessProcessProcessProcessPro2';

  it('an async run queued at SIGTERM is taken up at the next start: wait() answers its result', async () => {
    const file = join(dir, 'state.json');
    // Steps of 10 minutes: the run is still queued when the process stops.
    const first = await startOzMock(['--state', file, '--api-key', apiKey, '--step-ms', '600000']);
    started.push(first.mock);
    const pointer = await new Oz({ apiKey, baseURL: first.line.url, logLevel: 'off' }).agents.execute({
      agent: 'writer',
      user_request: 'after a restart',
      async: true,
    });
    expect(await first.mock.stop()).toEqual({ code: 0, signal: null });

    const second = await startOzMock(['--state', file, '--api-key', apiKey, '--step-ms', '5']);
    started.push(second.mock);
    const oz = new Oz({ apiKey, baseURL: second.line.url, logLevel: 'off' });
    expect(await oz.executions.wait(pointer.execution_id, { timeout: 10_000 })).toMatchObject({
      ok: true,
      content: 'Here is a draft for: after a restart',
      execution_id: pointer.execution_id,
    });
  });
});
