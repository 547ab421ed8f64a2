import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { OzListener, OzServer, ResponseEvent } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';

const servers = testServersForSuite();
let server: OzServer;
let listener: OzListener | undefined;

const LONG = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');

/** Sets up a server whose writer streams 45 tokens, 10 ms apart, and records the events the server side sent. */
function streamingServer() {
  server = servers.create({ timing: { tokenMs: 10 } });
  const sent: Promise<string[]>[] = [];
  server.onResponse((e: ResponseEvent) => {
    if (e.operationId === 'executeAgent') sent.push(readEvents(e.response).then((r) => r.events.map((ev) => ev.event ?? 'message')));
  });
  return sent;
}

async function readTokens(res: Response, count: number, controller: AbortController): Promise<unknown> {
  const reader = res.body!.getReader();
  let chunks = 0;
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return 'done';
      if (++chunks === count) controller.abort();
    }
  } catch (err) {
    return err;
  }
}

function streamRequest(base: string, key: string, signal: AbortSignal, fetchImpl: typeof fetch = fetch) {
  return fetchImpl(`${base}/v1/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'writer', user_request: LONG, stream: true }),
    signal,
  });
}

describe('abort (in process)', () => {
  it('rejects at once with the abort reason when aborted before the answer; the run still completes', async () => {
    server = servers.create({ clock: { frozen: true } });
    const controller = new AbortController();
    const pending = server.fetch(`${server.url}/v1/tools/slow/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', 'x-trace-id': 'trace-abort' },
      body: JSON.stringify({ ms: 30 }),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await server.idle();
    expect(server.getExecution('trace-abort')!.status).toBe('succeeded');
  });

  it('rejects a request whose signal is already aborted, without handling it', async () => {
    server = servers.create();
    await expect(server.fetch(`${server.url}/health`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.journal.entries).toEqual([]);
  });

  it('cancels a streamed body: reads reject with AbortError and the server stops sending', async () => {
    const sent = streamingServer();
    const controller = new AbortController();
    const res = await streamRequest(server.url, server.apiKey, controller.signal, server.fetch);
    const id = res.headers.get('x-execution-id')!;
    const outcome = await readTokens(res, 2, controller);
    expect(outcome).toMatchObject({ name: 'AbortError' });
    // The server side stopped: its copy of the stream ended without the closing event.
    expect(await sent[0]).not.toContain('result');
    await server.idle();
    expect(server.getExecution(id)).toMatchObject({ status: 'succeeded' });
  });
});

describe('server.handle', () => {
  const echo = (signal?: AbortSignal, tool = 'echo', body: unknown = { text: 'x' }) =>
    new Request(`${server.url}/v1/tools/${tool}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', 'x-trace-id': `trace-${tool}` },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });

  it('an answer that waits on nothing costs no abort listener on the request signal', async () => {
    server = servers.create();
    const request = echo();
    const add = vi.spyOn(request.signal, 'addEventListener');
    const response = await server.handle(request);
    expect(await response.json()).toMatchObject({ ok: true, content: 'x' });
    expect(add).not.toHaveBeenCalled();
  });

  it('an abort while the answer waits rejects at once with the reason, and leaves no listener; the run goes on', async () => {
    server = servers.create({ clock: { frozen: true } });
    const controller = new AbortController();
    const request = echo(controller.signal, 'slow', { ms: 30_000 });
    const pending = server.handle(request);
    setTimeout(() => controller.abort(new Error('gone')), 5);
    await expect(pending).rejects.toThrow('gone');
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(0);
    await server.clock.advance(30_000);
    await server.idle();
    expect(server.getExecution('trace-slow')!.status).toBe('succeeded');
  });

  it('an abort in the turn the answer came in still rejects with the reason', async () => {
    server = servers.create();
    const controller = new AbortController();
    const pending = server.handle(echo(controller.signal));
    controller.abort(new Error('changed my mind'));
    await expect(pending).rejects.toThrow('changed my mind');
  });
});

describe('over HTTP', () => {
  it('cancels a streamed body when the client aborts; the server stops sending', async () => {
    const sent = streamingServer();
    listener = await server.listen();
    const controller = new AbortController();
    const res = await streamRequest(listener.url, server.apiKey, controller.signal);
    const outcome = await readTokens(res, 2, controller);
    expect(outcome).toMatchObject({ name: 'AbortError' });
    expect(await sent[0]).not.toContain('result');
    await server.idle();
  });

  it('drop destroys the socket: fetch fails and nothing is written', async () => {
    server = servers.create();
    listener = await server.listen();
    server.faults.add({ operationId: 'executeTool', type: 'drop' });
    const err = await fetch(`${listener.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', 'x-trace-id': 'trace-http-drop' },
      body: JSON.stringify({ text: 'x' }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(server.getExecution('trace-http-drop')).toBeUndefined();
  });

  it('lose runs and records, then destroys the socket', async () => {
    server = servers.create();
    listener = await server.listen();
    server.faults.add({ operationId: 'executeTool', type: 'lose' });
    const err = await fetch(`${listener.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', 'x-trace-id': 'trace-http-lose' },
      body: JSON.stringify({ text: 'kept' }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(server.getExecution('trace-http-lose')).toMatchObject({ status: 'succeeded', content: 'kept' });
  });

  it('cut ends a stream after N events with a terminated body', async () => {
    server = servers.create();
    listener = await server.listen();
    server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 2 });
    const res = await streamRequest(listener.url, server.apiKey, new AbortController().signal);
    const { events, error } = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual(['token', 'token']);
    expect(error).toBeInstanceOf(TypeError);
    await server.idle();
  });

  it('error faults answer over HTTP too, with Retry-After', async () => {
    server = servers.create();
    listener = await server.listen();
    server.faults.add({ operationId: 'listModels', type: 'error', status: 429, code: 'rate_limited', retryAfter: 3 });
    const res = await fetch(`${listener.url}/v1/models`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect([res.status, res.headers.get('retry-after'), res.headers.get('x-error-code')]).toEqual([429, '3', 'rate_limited']);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
  });
});
