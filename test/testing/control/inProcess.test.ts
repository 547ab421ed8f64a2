/** The in-process side: baseline and seeds surviving reset, typed faults and journal filters, fixtures at creation. */
import { afterAll, beforeAll, afterEach, describe, expect, it } from 'vitest';
import { createOzServer, OzMockError, type OzServer } from '../../../src/testing/index.js';

describe("a user's beforeAll seeding survives reset()", () => {
  const server = createOzServer();
  let key = '';
  beforeAll(() => {
    server.addAccount({ name: 'team' });
    key = server.addKey({ account: 'team' }).key;
    server.addTool({ name: 'hello', handler: () => 'hi' });
    server.baseline();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const call = (path: string, k = key) =>
    server.fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: '{}' });

  it('first test: the seeded key and tool work, and a test-local addition is made', async () => {
    expect((await call('/v1/tools/hello/execute')).status).toBe(200);
    server.linkConnection('team', 'crm');
    server.faults.add({ type: 'drop' });
    expect(server.faults.pending).toHaveLength(1);
  });

  it("second test: the seeding is still there; the first test's additions, faults and journal are gone", async () => {
    expect(server.journal.entries).toHaveLength(0);
    expect(server.faults.pending).toHaveLength(0);
    expect(server.exportState().accounts.find((a) => a.name === 'team')?.connections).toEqual([]);
    expect((await call('/v1/tools/hello/execute')).status).toBe(200);
  });
});

describe('a function seed', () => {
  it('runs once on the demo seed and is part of the baseline', async () => {
    let runs = 0;
    const server = createOzServer({
      seed: (s) => {
        runs++;
        s.addAccount({ name: 'fn' });
        s.addKey({ account: 'fn', key: 'ozk_FnFnFnFnFnFnFnFnFnFnFnFnFnFnFnFn' });
      },
    });
    const ok = () => server.fetch(`${server.url}/v1/tools`, { headers: { authorization: 'Bearer ozk_FnFnFnFnFnFnFnFnFnFnFnFnFnFnFnFn' } });
    expect((await ok()).status).toBe(200);
    server.reset();
    expect((await ok()).status).toBe(200);
    expect((await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } })).status).toBe(200);
    expect(runs).toBe(1);
    await server.close();
  });

  it('fixtures at creation: a bad one throws 422 naming the field', () => {
    const err = (() => {
      try {
        createOzServer({ fixtures: [{ tools: [{ name: 'x', answer: 'a' }] }, 'agents:\n  - name: a\n    tokens: [1]\n'] });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(OzMockError);
    expect((err as OzMockError).message).toMatch(/^agents\[0\]\.tokens\[0\] must be a string/);
  });

  it('baseline() while work is in flight throws; after idle() it captures', async () => {
    const server = createOzServer({ clock: { frozen: true } });
    await server.fetch(`${server.url}/v1/tools/slow/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"ms": 1000, "async": true}',
    });
    expect(() => server.baseline()).toThrow(/work is in flight/);
    await server.idle();
    server.baseline();
    server.reset();
    expect(server.exportState().executions).toHaveLength(1);
    await server.close();
  });
});

describe('typed controls', () => {
  let server: OzServer;
  beforeAll(() => {
    server = createOzServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());
  const post = (path: string, body: unknown, key = server.apiKey) =>
    server.fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('an unknown operationId throws at add and in a journal filter', () => {
    // @ts-expect-error: not an operationId of openapi.json
    expect(() => server.faults.add({ operationId: 'executeTools', type: 'drop' })).toThrow(TypeError);
    // @ts-expect-error: not an operationId of openapi.json
    expect(() => server.journal.filter('executeTools')).toThrow(/names no operation/);
    expect(server.faults.pending).toHaveLength(0);
  });

  it('an error fault carries connect, hint, missing and contract, so error.connect.provider is there', async () => {
    server.faults.add({
      operationId: 'executeTool',
      type: 'error',
      status: 424,
      code: 'connection_required',
      connect: { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' },
      hint: 'Link crm.',
      missing: ['crm'],
      contract: 'tools.execute',
    });
    const res = await post('/v1/tools/echo/execute', { text: 'x' });
    expect(res.status).toBe(424);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'connection_required',
      connect: { provider: 'crm' },
      hint: 'Link crm.',
      missing: ['crm'],
      contract: 'tools.execute',
    });
  });

  it('a fault matches a body predicate or an account', async () => {
    server.faults.add({ type: 'error', status: 500, code: 'internal_error', body: (b) => (b as { text?: string }).text === 'boom' });
    server.faults.add({ type: 'error', status: 503, code: 'upstream_error', account: 'other' });
    expect((await post('/v1/tools/echo/execute', { text: 'calm' })).status).toBe(200);
    expect((await post('/v1/tools/echo/execute', { text: 'boom' })).status).toBe(500);
    expect((await post('/v1/tools/echo/execute', { text: 'calm' }, server.keys.otherApiKey)).status).toBe(503);
    expect(server.faults.pending).toHaveLength(0);
  });

  it('bad faults throw a TypeError naming the field and arm nothing', () => {
    expect(() => server.faults.add({ type: 'error', status: 200, code: 'internal_error' })).toThrow(/status from 400 to 599/);
    expect(() => server.faults.add({ type: 'delay', ms: -1 })).toThrow(/ms >= 0/);
    expect(() => server.faults.add({ type: 'drop', times: 1.5 })).toThrow(/times/);
    expect(server.faults.pending).toHaveLength(0);
  });

  it('a fault handle has an id, counts down, and cancels', () => {
    const h = server.faults.add({ type: 'drop', times: 2 });
    expect(h.id).toMatch(/^flt_\d+$/);
    expect(h.remaining).toBe(2);
    h.cancel();
    expect(h.remaining).toBe(0);
  });

  it('an adminToken of the wrong shape throws', () => {
    expect(() => createOzServer({ adminToken: 'secret' })).toThrow(/ozadm_/);
  });

  it('a state document from another server is refused when it names a code tool this one lacks', () => {
    const empty = createOzServer({ seed: 'empty' });
    expect(() => empty.importState(server.exportState())).toThrow(/tools\[0\] is the tool echo, written in code/);
    void empty.close();
  });
});
