import { getEventListeners } from 'node:events';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import {
  ApprovalRequiredError,
  Oz,
  OzAbortError,
  ExecutionCancelledError,
  OzStreamIdleTimeoutError,
  OzStreamInterruptedError,
  type AsyncPointer,
  type ClientOptions,
  type ExecuteStreamEvent,
  type PointerWait,
} from '../../../src/index.js';
import type { OzListener, OzServer, OzServerOptions } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { collect, rejectionOf } from '../support/sse.js';

const servers = testServersForSuite();
let server: OzServer | undefined;
let listener: OzListener | undefined;

type Mount = 'in process' | 'over HTTP';

/** A fresh embedded server and a client to it, through the mount. */
async function setUp(mount: Mount, options: OzServerOptions = {}, clientOptions: ClientOptions = {}): Promise<{ oz: Oz; server: OzServer }> {
  server = servers.create(options);
  const base = { apiKey: server.apiKey, logLevel: 'off' as const, ...clientOptions };
  if (mount === 'in process') return { oz: new Oz({ ...base, baseURL: server.url, fetch: server.fetch }), server };
  listener = await server.listen();
  return { oz: new Oz({ ...base, baseURL: listener.url }), server };
}

const draft = (request: string) => `Here is a draft for: ${request}`;
const LONG = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
type Waitable = AsyncPointer & { wait: PointerWait };

describe.each<Mount>(['in process', 'over HTTP'])('streams, waits and pages against the embedded server (%s)', (mount) => {
  it('an agent stream: token events, then the result envelope with the stream ids', async () => {
    const { oz } = await setUp(mount);
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'three small words', stream: true });
    const deltas = await collect(stream.textDeltas());
    expect(deltas.join('')).toBe(draft('three small words'));
    expect(deltas.length).toBeGreaterThan(3);
    expect(stream.executionId).toMatch(/^exe_/);
    expect(await stream.finalResult()).toEqual({
      ok: true,
      content: draft('three small words'),
      execution_id: stream.executionId,
      request_id: stream.requestId,
    });
  });

  it('a workflow stream: step events around each task, tokens, then the result', async () => {
    const { oz } = await setUp(mount);
    const stream = await oz.workflows.executeStream({
      workflow: {
        name: 'pair',
        tasks: [
          { id: 'a', type: 'task', agent: 'writer' },
          { id: 'b', type: 'task', agent: 'writer', user_request: 'ok' },
        ],
      },
      input: 'go',
    });
    const events = await collect(stream);
    const shape = events.filter((e) => e.event !== 'token').map((e) => (e.event === 'step' ? `${e.data.task_id}:${e.data.status}` : e.event));
    expect(shape).toEqual(['a:started', 'a:succeeded', 'b:started', 'b:succeeded', 'result']);
    expect(events.some((e) => e.event === 'token')).toBe(true);
    expect(await stream.finalResult()).toMatchObject({ ok: true, content: draft('ok'), execution_id: stream.executionId });

    const stored = await oz.workflows.executeStoredStream('draft-and-review', { input: 'x' });
    expect((await collect(stored)).filter((e) => e.event === 'step')).toHaveLength(4);
  });

  it('a chat stream: OpenAI chunks until [DONE], with their text', async () => {
    const { oz } = await setUp(mount);
    const stream = await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hello there' }], stream: true });
    const chunks = await collect(stream);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    const text = await stream.finalText();
    expect(text.length).toBeGreaterThan(0);
    const whole = await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'hello there' }] });
    expect(text).toBe(whole.choices[0]!.message.content);
  });

  it('a mid-stream error event throws the typed error after the events before it', async () => {
    const { oz, server } = await setUp(mount);
    server.addWorkflow({ account: 'demo', name: 'gated', tasks: [{ id: 'gate', type: 'task', agent: 'approver' }] });
    const stream = await oz.workflows.executeStoredStream('gated', { input: 'x' });
    const seen: ExecuteStreamEvent[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) seen.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect(error).toMatchObject({ status: 409, code: 'approval_required', executionId: stream.executionId });
    expect(seen.map((e) => (e.event === 'step' ? e.data.status : e.event))).toEqual(['started', 'failed']);
  });

  it('a cut stream throws OzStreamInterruptedError; the caller falls back to waiting on its execution', async () => {
    const { oz, server } = await setUp(mount);
    server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 3 });
    const stream = await oz.agents.execute({ agent: 'writer', user_request: LONG, stream: true });
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamInterruptedError);
    const { executionId, receivedText } = error as OzStreamInterruptedError;
    expect(executionId).toBe(stream.executionId);
    expect(draft(LONG).startsWith(receivedText!)).toBe(true);
    expect(receivedText!.length).toBeGreaterThan(0);
    await server.idle();
    expect(await oz.executions.wait(executionId!)).toMatchObject({ ok: true, content: draft(LONG), execution_id: executionId });
  });

  it('a stalled stream ends with OzStreamIdleTimeoutError; the run goes on', async () => {
    // A token a minute on a running clock (a frozen clock does not hold streams back: they send at once).
    const { oz, server } = await setUp(mount, { timing: { tokenMs: 60_000 } }, { idleTimeout: 50 });
    const stream = await oz.agents.execute({ agent: 'writer', user_request: 'slowly', stream: true });
    const error = await rejectionOf(collect(stream));
    expect(error).toBeInstanceOf(OzStreamIdleTimeoutError);
    expect(error).toMatchObject({ idleTimeout: 50, executionId: stream.executionId });
    await server.clock.advance(3_600_000);
    await server.idle();
    expect(server.getExecution(stream.executionId!)).toMatchObject({ status: 'succeeded', content: draft('slowly') });
  });

  it('aborting mid-stream throws OzAbortError at once and leaves no listener; breaking out neither', async () => {
    const { oz, server } = await setUp(mount, { timing: { tokenMs: 5 } });
    const controller = new AbortController();
    const stream = await oz.agents.execute({ agent: 'writer', user_request: LONG, stream: true }, { signal: controller.signal });
    let tokens = 0;
    const error = await rejectionOf(
      (async () => {
        for await (const event of stream) if (event.event === 'token' && ++tokens === 2) controller.abort();
      })(),
    );
    expect(error).toBeInstanceOf(OzAbortError);
    expect(tokens).toBe(2);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const shared = new AbortController();
    for (let i = 0; i < 5; i++) {
      const again = await oz.agents.execute({ agent: 'writer', user_request: 'a few words', stream: true }, { signal: shared.signal });
      for await (const _ of again.textDeltas()) break;
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    await server.idle();
  });

  it('waits on a pointer: succeeded answers the result; failed and cancelled throw their typed errors', async () => {
    const { oz, server } = await setUp(mount, { clock: { frozen: true } });
    const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'later', async: true });
    expect(Object.keys(pointer)).toEqual(['workflow_id', 'execution_id', 'task_id', 'status']);
    await server.idle();
    expect(await (pointer as Waitable).wait()).toMatchObject({ ok: true, content: draft('later'), execution_id: pointer.execution_id });

    const refused = await oz.agents.execute({ agent: 'approver', user_request: 'ship', async: true });
    await server.idle();
    expect(await rejectionOf(oz.executions.wait(refused))).toBeInstanceOf(ApprovalRequiredError);

    const cancelled = await oz.agents.execute({ agent: 'writer', user_request: 'never mind', async: true });
    await oz.executions.cancel(cancelled.execution_id);
    const thrown = await rejectionOf(oz.executions.wait(cancelled));
    expect(thrown).toBeInstanceOf(ExecutionCancelledError);
    expect(thrown).toMatchObject({ executionId: cancelled.execution_id });
  });

  it('aborting during polling stops the wait at once and leaves no listener', async () => {
    const { oz } = await setUp(mount, { clock: { frozen: true } });
    const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'forever', async: true });
    const controller = new AbortController();
    const statuses: string[] = [];
    const error = await rejectionOf(
      oz.executions.wait(pointer, {
        signal: controller.signal,
        onProgress: (record) => {
          statuses.push(record.status);
          setTimeout(() => controller.abort(), 10);
        },
      }),
    );
    expect(error).toBeInstanceOf(OzAbortError);
    expect(statuses).toHaveLength(1);
    expect(['queued', 'running']).toContain(statuses[0]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a pointer answered on the yaml wire, stored as YAML and read back, is waited on', async () => {
    const { oz, server } = await setUp(mount, { clock: { frozen: true } });
    const pointer = await oz.tools.execute('echo', { text: 'stored', async: true }, { format: 'yaml' });
    const loaded = yaml.load(yaml.dump(pointer), { schema: yaml.JSON_SCHEMA }) as AsyncPointer;
    expect(loaded).toEqual(pointer);
    await server.idle();
    expect(await oz.executions.wait(loaded)).toMatchObject({ ok: true, execution_id: pointer.execution_id });
    expect(await (pointer as Waitable).wait()).toMatchObject({ execution_id: pointer.execution_id });
  });

  it('for await walks every page of a list: tools one per page, executions two per page', async () => {
    const { oz } = await setUp(mount);
    const tools = await collect(oz.tools.list({ limit: 1 }));
    expect(tools.map((t) => t.name).sort()).toEqual(['crm_lookup', 'echo', 'slow', 'sum']);

    for (let i = 0; i < 5; i++) await oz.tools.execute('echo', { text: `run ${i}` });
    const pages = await collect(oz.executions.list({ limit: 2 }).iterPages());
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    const executions = await collect(oz.executions.list({ limit: 2 }));
    expect(executions).toHaveLength(5);
    expect(new Set(executions.map((e) => e.id)).size).toBe(5);
  });
});

describe('polling the embedded server', () => {
  it("honours the record's retry-after-ms between polls", async () => {
    const { oz } = await setUp('in process');
    const pointer = await oz.tools.execute('slow', { ms: 100, async: true });
    const polledAt: number[] = [];
    const result = await oz.executions.wait(pointer, { interval: 1, onProgress: () => void polledAt.push(Date.now()) });
    expect(result).toMatchObject({ ok: true, execution_id: pointer.execution_id });
    expect(polledAt.length).toBeGreaterThanOrEqual(2);
    // The server suggests when the run's current wait ends (retry-after-ms, a few to 100 ms here), which the
    // client follows (at least 50 ms apart) instead of its interval of 1 ms: a handful of polls, not a hundred.
    for (let i = 1; i < polledAt.length; i++) expect(polledAt[i]! - polledAt[i - 1]!).toBeGreaterThanOrEqual(45);
    expect(polledAt.length).toBeLessThanOrEqual(6);
  });
});
