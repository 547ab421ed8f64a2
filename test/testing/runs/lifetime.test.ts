/**
 * The state's lifetime ends the work in flight (the contract's "Trust at the edges, round 3"): `reset()`,
 * `restore()` and `importState()` end every open stream of the API at once with an `error` event (`code` `reset`),
 * and no run of the old state writes into the new one.
 */
import { describe, expect, it } from 'vitest';
import { Oz, ResetError } from '../../../src/index.js';
import type { OzServer } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';
import { startOzMock } from '../control/spawnOzMock.js';

const servers = testServersForSuite();

const LONG = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');

/** An event stream's events as they come, and a promise of the rest once it ends. */
function eventsOf(res: Response): { events: Array<{ event: string; data: string }>; ended: Promise<void>; next(): Promise<void> } {
  const events: Array<{ event: string; data: string }> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let wake = null as (() => void) | null;
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined) events.push({ event, data });
      }
      wake?.();
    }
    wake?.();
  })();
  return { events, ended, next: () => new Promise<void>((resolve) => (wake = resolve)) };
}

/** Opens an agent stream and waits for its first token. */
async function openAgentStream(server: OzServer): Promise<{ id: string; stream: ReturnType<typeof eventsOf> }> {
  const res = await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: LONG, stream: true } });
  expect(res.status).toBe(200);
  const stream = eventsOf(res);
  while (!stream.events.some((e) => e.event === 'token')) await stream.next();
  return { id: res.headers.get('x-execution-id')!, stream };
}

/** Asserts the stream ended with one `error` event of code `reset` (for its execution) and nothing after it. */
async function expectEndedByReset(stream: ReturnType<typeof eventsOf>, executionId?: string): Promise<void> {
  await stream.ended;
  const last = stream.events.at(-1)!;
  expect(last.event).toBe('error');
  const error = (JSON.parse(last.data) as { error: Record<string, unknown> }).error;
  expect(error).toMatchObject({ code: 'reset', message: expect.stringContaining('reset') });
  if (executionId !== undefined) expect(error.execution_id).toBe(executionId);
  expect(stream.events.filter((e) => e.event === 'result' || e.event === 'error')).toHaveLength(1);
}

describe('reset(), restore() and importState() end the streams in flight', () => {
  it('reset(): 10 agent streams end at once with an error event of code reset; their runs write nothing', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const before = server.wallet('demo');
    const open = await Promise.all(Array.from({ length: 10 }, () => openAgentStream(server)));
    const started = Date.now();
    server.reset();
    await Promise.all(open.map((o) => expectEndedByReset(o.stream, o.id)));
    // At once: long before the 200 tokens (4 s) the runs would take.
    expect(Date.now() - started).toBeLessThan(1000);
    await server.idle();
    for (const o of open) expect(server.getExecution(o.id)).toBeUndefined();
    expect(server.wallet('demo')).toEqual(before);
    expect(server.exportState().executions).toEqual([]);
  });

  it('50 streams and 50 sync runs in flight end with no warning (no listener piles up on a signal)', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const open = await Promise.all(Array.from({ length: 50 }, () => openAgentStream(server)));
      const sync = Array.from({ length: 50 }, () => call(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 60_000 } }));
      await new Promise((r) => setTimeout(r, 30));
      server.reset();
      await Promise.all(open.map((o) => expectEndedByReset(o.stream, o.id)));
      expect((await Promise.all(sync)).map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 409));
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('restore(snapshot) and importState(doc) end the streams too', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const snapshot = server.snapshot();
    const first = await openAgentStream(server);
    server.restore(snapshot);
    await expectEndedByReset(first.stream, first.id);
    const doc = server.exportState();
    const second = await openAgentStream(server);
    server.importState(doc);
    await expectEndedByReset(second.stream, second.id);
    await server.idle();
    expect(server.getExecution(second.id)).toBeUndefined();
  });

  it('a workflow stream and a chat completion stream end with the reset error', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const workflow = await call(server, 'POST', '/v1/workflows/execute-stream', {
      body: { name: 'long', tasks: [{ id: 'a', type: 'task', agent: 'writer', user_request: LONG }] },
    });
    expect(workflow.status).toBe(200);
    const chat = await call(server, 'POST', '/v1/chat/completions', {
      key: server.keys.modelsKey,
      body: { model: 'oz-chat', stream: true, messages: [{ role: 'user', content: LONG }] },
    });
    expect(chat.status).toBe(200);
    const streams = [eventsOf(workflow), eventsOf(chat)];
    while (!streams.every((s) => s.events.length > 1)) await Promise.race(streams.map((s) => s.next()));
    server.reset();
    await expectEndedByReset(streams[0]!, workflow.headers.get('x-execution-id')!);
    await expectEndedByReset(streams[1]!);
    // The chat stream ends without its [DONE]: the reader knows it did not complete.
    expect(streams[1]!.events.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('the SDK reads the reset as ResetError (409) carrying the execution id', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
    const stream = await oz.agents.execute({ agent: 'writer', user_request: LONG, stream: true });
    const error = await (async () => {
      for await (const event of stream) if (event.event === 'token') server.reset();
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResetError);
    expect(error).toMatchObject({ status: 409, code: 'reset', executionId: stream.executionId });
  });

  it('a sync run in flight answers 409 reset at once, and its record is not in the new state', async () => {
    const server = servers.create();
    const pending = call(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 60_000 }, headers: { 'x-trace-id': 'trace-sync-reset' } });
    await new Promise((r) => setTimeout(r, 30));
    expect(server.getExecution('trace-sync-reset')).toMatchObject({ status: 'running' });
    server.reset();
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.headers.get('x-error-code')).toBe('reset');
    expect(await res.json()).toMatchObject({ error: { code: 'reset', execution_id: 'trace-sync-reset' } });
    expect(server.getExecution('trace-sync-reset')).toBeUndefined();
  });

  it('a run of the old state never writes into the new one, even one holding the same id', async () => {
    const server = servers.create({ clock: { frozen: true } });
    const before = server.wallet('demo');
    const res = await call(server, 'POST', '/v1/execute', {
      body: { agent: 'writer', user_request: 'x', async: true },
      headers: { 'x-trace-id': 'trace-old-world' },
    });
    expect(res.status).toBe(202);
    const doc = server.exportState();
    server.reset();
    // The old world's queued run: its step passes on the clock of the new world, and it stays stopped.
    await server.clock.advance(10_000);
    await server.idle();
    expect(server.getExecution('trace-old-world')).toBeUndefined();
    expect(server.wallet('demo')).toEqual(before);
    // The same record imported: only the run the import takes up again finishes it, and charges once.
    server.importState(doc);
    await server.clock.advance(10_000);
    await server.idle();
    expect(server.getExecution('trace-old-world')).toMatchObject({ status: 'succeeded', cost_usd: 0.001 });
    expect(server.wallet('demo').spent_usd).toBeCloseTo(before.spent_usd + 0.001, 6);
  });
});

describe('over HTTP', () => {
  it('POST /_oz/reset and a session reset end the open streams of their own world only', async () => {
    const server = servers.create({ timing: { tokenMs: 20 } });
    const listener = await server.listen();
    const admin = { authorization: `Bearer ${server.adminToken!}` };
    const session = (await (await fetch(`${listener.url}/_oz/sessions`, { method: 'POST', headers: admin })).json()) as { id: string; api_key: string };
    const open = (key: string) =>
      fetch(`${listener.url}/v1/execute`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'writer', user_request: LONG, stream: true }),
      });
    const [rootRes, sessionRes] = await Promise.all([open(server.apiKey), open(session.api_key)]);
    const root = eventsOf(rootRes);
    const other = eventsOf(sessionRes);
    while (!other.events.some((e) => e.event === 'token') || !root.events.some((e) => e.event === 'token')) await Promise.race([root.next(), other.next()]);
    expect((await fetch(`${listener.url}/_oz/sessions/${session.id}/reset`, { method: 'POST', headers: admin })).status).toBeLessThan(300);
    await expectEndedByReset(other, sessionRes.headers.get('x-execution-id')!);
    // The default world's stream goes on until its own reset.
    expect(root.events.at(-1)!.event).toBe('token');
    expect((await fetch(`${listener.url}/_oz/reset`, { method: 'POST', headers: admin })).status).toBeLessThan(300);
    await expectEndedByReset(root, rootRes.headers.get('x-execution-id')!);
    await listener.close();
  });
});

describe('a real oz-mock', () => {
  it('10 agent streams on --token-ms 60, then POST /_oz/reset: each ends at once with the reset error', async () => {
    const { mock, line } = await startOzMock(['--token-ms', '60']);
    try {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${line.url}/v1/execute`, {
            method: 'POST',
            headers: { authorization: `Bearer ${line.apiKey!}`, 'content-type': 'application/json' },
            body: JSON.stringify({ agent: 'writer', user_request: LONG, stream: true }),
          }),
        ),
      );
      const streams = responses.map(eventsOf);
      for (const s of streams) while (!s.events.some((e) => e.event === 'token')) await s.next();
      const started = Date.now();
      expect((await fetch(`${line.url}/_oz/reset`, { method: 'POST', headers: { authorization: `Bearer ${line.adminToken!}` } })).status).toBeLessThan(300);
      await Promise.all(streams.map((s, i) => expectEndedByReset(s, responses[i]!.headers.get('x-execution-id')!)));
      // At once, not after the 200 tokens of 60 ms (12 s) each run would take.
      expect(Date.now() - started).toBeLessThan(2000);
      // The runs belonged to the state that is gone: the new one has no record of them.
      const id = responses[0]!.headers.get('x-execution-id')!;
      expect((await fetch(`${line.url}/v1/executions/${id}`, { headers: { authorization: `Bearer ${line.apiKey!}` } })).status).toBe(404);
    } finally {
      await mock.stop();
    }
  });
});
