import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';

// msw patches the global fetch only between listen() and close(), inside this file.
const server = createTestServer({ timing: { tokenMs: 10 } });
const msw = setupServer(...server.handlers());
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.reset();
});
afterAll(async () => {
  msw.close();
  await server.close();
});

const auth = () => ({ authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' });

describe('the msw mount (setupServer(...server.handlers()))', () => {
  it('answers the global fetch at server.url', async () => {
    const res = await fetch(`${server.url}/v1/tools/echo/execute?format=text`, { method: 'POST', headers: auth(), body: JSON.stringify({ text: 'via msw' }) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('via msw');
    expect(server.journal.last('executeTool')).toMatchObject({ mount: 'msw', status: 200 });
  });

  it('answers errors with their headers, and 404 for unknown routes', async () => {
    const res = await fetch(`${server.url}/v1/tools/sum/execute`, { method: 'POST', headers: auth(), body: '{}' });
    expect([res.status, res.headers.get('x-error-code')]).toEqual([422, 'invalid_params']);
    expect((await fetch(`${server.url}/v9/nothing`)).status).toBe(404);
  });

  it('serves the MCP server at mcpUrl', async () => {
    const res = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...auth(), accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(5);
    expect(server.journal.last('mcpRequest')).toMatchObject({ mount: 'msw', surface: 'mcp' });
  });

  it('streams events as a plain ReadableStream body', async () => {
    const res = await fetch(`${server.url}/v1/execute`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ agent: 'writer', user_request: 'msw stream', stream: true }),
    });
    const { events } = await readEvents(res);
    expect(events[events.length - 1]!.event).toBe('result');
    expect(events.filter((e) => e.event === 'token').length).toBe(7);
  });

  it('aborting cancels a streamed body: reads reject and the server stops sending', async () => {
    const sent: Promise<string[]>[] = [];
    const off = server.onResponse((e) => {
      if (e.operationId === 'executeAgent') sent.push(readEvents(e.response).then((r) => r.events.map((ev) => ev.event ?? 'message')));
    });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/execute`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ agent: 'writer', user_request: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), stream: true }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    expect(await sent[0]).not.toContain('result');
    off();
    await server.idle();
  });

  it('aborting before the answer rejects the fetch', async () => {
    const controller = new AbortController();
    const pending = fetch(`${server.url}/v1/tools/slow/execute`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ ms: 60_000 }),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await server.clock.advance(60_000);
    await server.idle();
  });

  it('a drop fault is a network error; a cut ends a stream with an error', async () => {
    server.faults.add({ operationId: 'executeTool', type: 'drop' });
    await expect(fetch(`${server.url}/v1/tools/echo/execute`, { method: 'POST', headers: auth(), body: JSON.stringify({ text: 'x' }) })).rejects.toThrow(
      TypeError,
    );
    server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 2 });
    const res = await fetch(`${server.url}/v1/execute`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ agent: 'writer', user_request: 'a b c d', stream: true }),
    });
    const { events, error } = await readEvents(res);
    expect(events).toHaveLength(2);
    expect(error).toBeInstanceOf(TypeError);
    await server.idle();
  });
});
