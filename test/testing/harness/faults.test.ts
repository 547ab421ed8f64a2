import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionList, ItemList } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

const echo = (text = 'x', headers?: Record<string, string>) => call(server, 'POST', '/v1/tools/echo/execute', { body: { text }, headers });

async function executions(): Promise<number> {
  return (await callJson<ExecutionList>(server, 'GET', '/v1/executions?limit=100')).body.data.length;
}

describe('fault injection (in process)', () => {
  it('matches a body as stubs and the journal do: a JSON subset, compared deeply (a nested object may hold more)', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', body: { params: { text: 'boom' } } });
    const send = (params: Record<string, unknown>) => call(server, 'POST', '/v1/tools/echo/execute', { body: { params } });
    expect((await send({ text: 'boom', extra: 1 })).status).toBe(500);
    expect((await send({ text: 'fine' })).status).toBe(200);
    // The near miss names the nested field that differed, as a stub's does.
    server.faults.clear();
    server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', body: { params: { text: 'never' } } });
    await send({ text: 'close' });
    expect(server.unused().faults[0]?.nearMisses[0]?.differences).toContainEqual({ path: 'body.params.text', expected: 'never', actual: 'close' });
  });

  it('error: answers the status and code with Retry-After for the next N matching requests; nothing is written', async () => {
    server = createTestServer();
    const handle = server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 2, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await echo();
      expect(res.status).toBe(500);
      expect(res.headers.get('x-error-code')).toBe('internal_error');
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as ErrorBody).error.code).toBe('internal_error');
    }
    expect(handle.remaining).toBe(0);
    expect((await echo()).status).toBe(200);
    expect(await executions()).toBe(1);
    expect(server.journal.filter('executeTool').map((e) => e.fault)).toEqual(['error', 'error', null]);
  });

  it('error on the companies plane: 502 upstream_error and 503 not_enabled, on the negotiated wire', async () => {
    server = createTestServer();
    server.faults.add({
      path: '/v1/companies/acme/items',
      method: 'POST',
      type: 'error',
      status: 502,
      code: 'upstream_error',
      message: 'The company service is unavailable; retry.',
    });
    const res = await call(server, 'POST', '/v1/companies/acme/items?format=text', { body: { building: 'hq', title: 'T' } });
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('upstream_error: The company service is unavailable; retry.\n');
    expect((await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items')).body.data).toEqual([]);
  });

  it('is scoped: by operationId, by path pattern and method; others pass', async () => {
    server = createTestServer();
    server.faults.add({ path: /^\/v1\/tools\/sum\//, type: 'error', status: 429, code: 'rate_limited', retryAfter: 1 });
    expect((await echo()).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools/sum')).status).toBe(200);
    expect((await call(server, 'POST', '/v1/tools/sum/execute', { body: { a: 1, b: 2 } })).status).toBe(429);
    server.faults.add({ method: 'GET', type: 'error', status: 504, code: 'timeout' });
    expect((await echo()).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(504);
    expect(server.faults.pending).toEqual([]);
  });

  it('delay: waits on the server clock before handling', async () => {
    server = createTestServer({ clock: { frozen: true } });
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 1000 });
    let settled = false;
    const pending = echo().then((r) => ((settled = true), r));
    await server.clock.advance(999);
    expect(settled).toBe(false);
    await server.clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('delay then abort: the request is not handled', async () => {
    server = createTestServer({ clock: { frozen: true } });
    server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 1000 });
    const controller = new AbortController();
    const pending = call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await server.clock.advance(1000);
    expect(await executions()).toBe(0);
  });

  it('drop: rejects the fetch with TypeError like undici, and nothing is written', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'executeTool', type: 'drop' });
    const err = await echo('dropped', { 'x-trace-id': 'trace-drop' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(server.getExecution('trace-drop')).toBeUndefined();
    expect(server.journal.last('executeTool')).toMatchObject({ fault: 'drop', status: null, body: JSON.stringify({ text: 'dropped' }) });
    expect((await echo('again', { 'x-trace-id': 'trace-drop' })).status).toBe(200);
  });

  it('lose: the execution runs and is recorded, then the connection drops; a retry with the trace id sees 409', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'executeTool', type: 'lose' });
    await expect(echo('lost', { 'x-trace-id': 'trace-lost' })).rejects.toThrow(TypeError);
    expect(server.getExecution('trace-lost')).toMatchObject({ status: 'succeeded', content: 'lost' });
    expect(server.journal.last('executeTool')).toMatchObject({ fault: 'lose', status: 200, executionId: 'trace-lost' });
    const replay = await echo('lost', { 'x-trace-id': 'trace-lost' });
    expect([replay.status, replay.headers.get('x-execution-id')]).toEqual([409, 'trace-lost']);
  });

  it('cut: a stream is cut after N events with TypeError terminated; the run goes on and is recorded', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 3 });
    const res = await call(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'one two three four five', stream: true } });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-execution-id')!;
    const { events, error } = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual(['token', 'token', 'token']);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
    await server.idle();
    expect(server.getExecution(id)).toMatchObject({ status: 'succeeded', content: 'Here is a draft for: one two three four five' });
  });

  it('cut on an answer that is not a stream loses it like lose', async () => {
    server = createTestServer();
    server.faults.add({ operationId: 'executeTool', type: 'cut', afterEvents: 1 });
    await expect(echo('cut', { 'x-trace-id': 'trace-cut' })).rejects.toThrow('fetch failed');
    expect(server.getExecution('trace-cut')!.status).toBe('succeeded');
  });

  it('cancel() withdraws a fault; clear() withdraws all', async () => {
    server = createTestServer();
    const a = server.faults.add({ type: 'drop', times: 5 });
    expect(a.remaining).toBe(5);
    a.cancel();
    expect(a.remaining).toBe(0);
    server.faults.add({ type: 'drop' });
    server.faults.clear();
    expect((await echo()).status).toBe(200);
  });
});

describe('the journal', () => {
  it('records operation, method, path, query, headers, body and status, filterable by operation', async () => {
    server = createTestServer();
    await echo('logged');
    await call(server, 'GET', '/v1/tools?limit=2');
    await call(server, 'GET', '/nowhere', { key: null });
    const entry = server.journal.last('executeTool')!;
    expect(entry).toMatchObject({
      operationId: 'executeTool',
      method: 'POST',
      path: '/v1/tools/echo/execute',
      query: '',
      body: '{"text":"logged"}',
      status: 200,
      mount: 'fetch',
      surface: 'api',
      fault: null,
    });
    expect(entry.executionId).toMatch(/^exe_/);
    expect(entry.headers['authorization']).toBe(`Bearer ${server.apiKey}`);
    expect(server.journal.last('listTools')).toMatchObject({ query: 'limit=2', body: null });
    expect(server.journal.last({ path: '/nowhere' })).toMatchObject({ operationId: null, status: 404 });
    expect(server.journal.count()).toBe(3);
    expect(server.journal.filter({ method: 'get' })).toHaveLength(2);
    expect(server.journal.filter({ status: 404 })).toHaveLength(1);
    server.journal.clear();
    expect(server.journal.entries).toEqual([]);
  });

  it('keeps the newest journalLimit entries', async () => {
    server = createTestServer({ journalLimit: 3 });
    for (let i = 0; i < 8; i++) await call(server, 'GET', `/health?i=${i}`, { key: null });
    expect(server.journal.entries.length).toBeGreaterThanOrEqual(3);
    expect(server.journal.entries.length).toBeLessThan(6);
    expect(server.journal.last()!.query).toBe('i=7');
  });
});

describe('snapshot, restore and reset', () => {
  it('restores the whole state, as often as needed', async () => {
    server = createTestServer();
    await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'prepared' } });
    server.addTool({ name: 'later', handler: () => 'x' });
    const snap = server.snapshot();
    await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'extra' } });
    server.addAccount({ name: 'newcomer' });
    for (let round = 0; round < 2; round++) {
      server.restore(snap);
      const items = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items');
      expect(items.body.data.map((i) => i.title)).toEqual(['prepared']);
      expect(() => server.wallet('newcomer')).toThrow();
      expect((await call(server, 'POST', '/v1/tools/later/execute', { body: {} })).status).toBe(200);
      await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'scribble' } });
    }
  });

  it('refuses a snapshot while work is in flight, and resumes walks after a restore', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const item = await callJson<{ id: string }>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'hq', title: 'walker' } });
    expect(() => server.snapshot()).toThrow(/idle/);
    await server.clock.advance(10);
    await server.idle();
    const snapDone = server.snapshot();
    server.restore(snapDone);
    expect(server.items.get(item.body.id)!.status).toBe('done');
  });

  it('work queued before a reset or restore never runs: its generation of the state ended', async () => {
    server = createTestServer({ clock: { frozen: true } });
    let calls = 0;
    server.addTool({ name: 'counted', handler: () => String(++calls) });
    const snap = server.snapshot();
    for (const renew of [() => server.restore(snap), () => server.reset()]) {
      const queued = await callJson<{ execution_id: string; status: string }>(server, 'POST', '/v1/tools/counted/execute', { body: { async: true } });
      expect([queued.status, queued.body.status]).toEqual([202, 'queued']);
      renew();
      await server.clock.advance(60_000);
      await server.idle();
      expect(calls).toBe(0);
    }
    // A run queued in the current generation does run.
    server.restore(snap);
    await call(server, 'POST', '/v1/tools/counted/execute', { body: { async: true } });
    await server.clock.advance(60_000);
    await server.idle();
    expect(calls).toBe(1);
  });

  it('reset() goes back to the seed: data, journal, faults and the same keys', async () => {
    server = createTestServer();
    await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'gone soon' } });
    server.faults.add({ type: 'drop', times: 10 });
    server.reset();
    expect(server.journal.entries).toEqual([]);
    const items = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items');
    expect([items.status, items.body.data]).toEqual([200, []]);
  });

  it('starts empty with seed: empty', async () => {
    server = createTestServer({ seed: 'empty' });
    server.addAccount({ name: 'solo', tier: 'pro' });
    const { key } = server.addKey({ account: 'solo' });
    expect((await callJson<{ data: unknown[] }>(server, 'GET', '/v1/tools', { key })).body.data).toEqual([]);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(401);
  });

  it('gives each server its own state', async () => {
    server = createTestServer({ apiKey: `ozk_${'a'.repeat(32)}` });
    const other = createTestServer({ apiKey: `ozk_${'a'.repeat(32)}` });
    await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'mine' } });
    expect((await callJson<ItemList>(other, 'GET', '/v1/companies/acme/items')).body.data).toEqual([]);
    await other.close();
  });
});
