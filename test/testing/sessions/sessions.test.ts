/**
 * Sessions: isolated worlds inside one server, in process (server.session()), over the control plane
 * (/_oz/sessions) and through connectOzMock(...).session().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectOzMock, createOzServer, OzMockError, OzNoDemoKeyError, type OzListener, type OzServer } from '../../../src/testing/index.js';
import { CONTROL_OPENAPI } from '../../../src/testing/control/controlOpenapi.js';

const TOKEN = 'ozadm_SessSessSessSessSessSessSessSess';

function get(server: OzServer, path: string, key: string) {
  return server.fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

function post(server: OzServer, path: string, key: string, body: unknown) {
  return server.fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('server.session() in process', () => {
  it('makes a world of its own from the baseline: new keys, own state, journal, faults, clock, reset', async () => {
    const server = createOzServer({ clock: { start: '2026-11-23T09:00:00Z', frozen: true } });
    const session = server.session();
    expect(session.id).toMatch(/^ses_[A-Za-z0-9]{24}$/);
    expect(session.apiKey).toMatch(/^ozk_/);
    expect(session.apiKey).not.toBe(server.apiKey);
    expect(session.keys.map((k) => `${k.account}/${k.kind}`).sort()).toEqual(['demo/models', 'demo/platform', 'demo/proxy', 'other/platform']);
    expect(new Set(session.keys.map((k) => k.apiKey)).size).toBe(4);

    // The session's key reaches the session through the server's fetch; the server's key the default session.
    const created = await post(server, '/v1/companies/acme/items', session.apiKey, { building: 'lab', title: 'in the session' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(session.items.get(id)?.title).toBe('in the session');
    expect(server.items.get(id)).toBeUndefined();
    expect((await get(server, `/v1/companies/acme/items/${id}`, server.apiKey)).status).toBe(404);
    expect((await get(server, `/v1/companies/acme/items/${id}`, session.apiKey)).status).toBe(200);
    expect(session.journal.count('createCompanyItem')).toBe(1);
    expect(server.journal.count()).toBe(1); // the 404 above
    expect(session.journal.last('createCompanyItem')?.account).toBe('demo');

    // Faults of a session apply to its requests only.
    session.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' });
    expect((await get(server, '/v1/tools', server.apiKey)).status).toBe(200);
    expect((await get(server, '/v1/tools', session.apiKey)).status).toBe(503);

    // Its clock is its own: frozen like the server's, at the server's time.
    expect(session.clock.iso()).toBe('2026-11-23T09:00:00.000Z');
    await session.clock.advance(60_000);
    expect(session.clock.iso()).toBe('2026-11-23T09:01:00.000Z');
    expect(server.clock.iso()).toBe('2026-11-23T09:00:00.000Z');

    // Reset goes back to the session's baseline; the server's state is untouched either way.
    session.reset();
    expect(session.items.get(id)).toBeUndefined();
    expect(session.journal.count()).toBe(0);
    await session.close();
    expect((await get(server, '/v1/tools', session.apiKey)).status).toBe(401);
    await server.close();
  });

  it('a session reset does not disturb another session or the default one', async () => {
    const server = createOzServer();
    const [a, b] = [server.session(), server.session()];
    await post(server, '/v1/companies/acme/items', a.apiKey, { building: 'lab', title: 'a' });
    await post(server, '/v1/companies/acme/items', b.apiKey, { building: 'lab', title: 'b' });
    await post(server, '/v1/companies/acme/items', server.apiKey, { building: 'lab', title: 'default' });
    a.reset();
    const titles = async (key: string) =>
      ((await (await get(server, '/v1/companies/acme/items?building=lab', key)).json()) as { data: { title: string }[] }).data.map((i) => i.title);
    expect(await titles(a.apiKey)).toEqual([]);
    expect(await titles(b.apiKey)).toEqual(['b']);
    expect(await titles(server.apiKey)).toEqual(['default']);
    await server.close();
  });

  it('starts from the baseline the server captured, with fixtures and a clock of its own', async () => {
    const server = createOzServer({ seed: (s) => s.addAccount({ name: 'initech', tier: 'pro' }) });
    server.loadFixtures({ tools: [{ name: 'shout', answer: '{{text}}!' }] });
    server.baseline();
    const session = server.session({
      fixtures: { tools: [{ name: 'whisper', answer: '{{text}}...' }] },
      clock: { start: '2030-01-01T00:00:00Z', frozen: true },
    });
    expect(session.clock.iso()).toBe('2030-01-01T00:00:00.000Z');
    for (const tool of ['shout', 'whisper']) expect((await post(server, `/v1/tools/${tool}/execute`, session.apiKey, { text: 'hi' })).status).toBe(200);
    expect((await post(server, '/v1/tools/whisper/execute', server.apiKey, { text: 'hi' })).status).toBe(404);
    session.reset(); // the session's fixtures are part of its baseline
    expect((await post(server, '/v1/tools/whisper/execute', session.apiKey, { text: 'hi' })).status).toBe(200);
    expect(session.exportState().accounts.map((a) => a.name)).toContain('initech');
    await server.close();
  });

  it('refuses bad options with a TypeError, and past maxSessions with 429 rate_limited', async () => {
    const server = createOzServer({ maxSessions: 2 });
    expect(() => server.session({ colour: 'red' } as never)).toThrow(/colour is not a session option/);
    expect(() => server.session({ clock: { frozen: 'yes' as never } })).toThrow(/clock.frozen must be true or false/);
    expect(() => server.session({ fixtures: { tools: [{ name: 'bad', answer: 42 as never }] } })).toThrow(/tools\[0\]\.answer/);
    const first = server.session();
    server.session();
    let refused: unknown;
    try {
      server.session();
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(OzMockError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    await first.close();
    expect(() => server.session()).not.toThrow();
    expect(() => createOzServer({ maxSessions: -1 })).toThrow(RangeError);
    await server.close();
  });

  it('with seed empty a session has no demo key: reading apiKey throws OzNoDemoKeyError naming the session, keys still lists its keys', async () => {
    const server = createOzServer({
      seed: 'empty',
      fixtures: { accounts: [{ name: 'shop' }], keys: [{ account: 'shop', value: 'ozk_ShopShopShopShopShopShopShop0001' }] },
    });
    const session = server.session();
    expect(() => session.apiKey).toThrow(OzNoDemoKeyError);
    expect(() => session.apiKey).toThrow(`Session ${session.id} has no demo key`);
    expect(session.keys).toEqual([expect.objectContaining({ account: 'shop', apiKey: expect.stringMatching(/^ozk_/) })]);
    expect((await get(server, '/v1/tools', session.keys[0]!.apiKey)).status).toBe(200);
    await server.close();
  });
});

describe('sessions over the control plane', () => {
  let server: OzServer;
  let listener: OzListener;
  beforeAll(async () => {
    server = createOzServer({ adminToken: TOKEN, maxSessions: 3 });
    listener = await server.listen();
  });
  afterAll(() => server.close());

  async function oz(method: string, path: string, body?: unknown) {
    const res = await fetch(`${listener.url}/_oz${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
  }

  it('creates, lists, scopes every control route to a session, and ends it', async () => {
    const created = await oz('POST', '/sessions', { clock: { start: '2026-11-23T12:00:00Z', frozen: true } });
    expect(created.status).toBe(201);
    const { id, api_key: key, keys } = created.body as { id: string; api_key: string; keys: { account: string; name: string; kind: string; value: string }[] };
    expect(keys.find((k) => k.value === key)).toMatchObject({ account: 'demo', kind: 'platform' });
    expect((await oz('GET', '/sessions')).body.data.map((s: { id: string }) => s.id)).toContain(id);

    const api = (path: string, k = key) => fetch(`${listener.url}${path}`, { headers: { authorization: `Bearer ${k}` } });
    expect((await oz('POST', `/sessions/${id}/faults`, { operationId: 'listTools', type: 'error', status: 502, code: 'upstream_error' })).status).toBe(201);
    expect((await oz('GET', '/faults')).body.data).toEqual([]);
    expect((await api('/v1/tools')).status).toBe(502);
    expect((await api('/v1/tools', server.apiKey)).status).toBe(200);
    const journal = await oz('GET', `/sessions/${id}/journal?operationId=listTools`);
    expect(journal.body.data.map((e: { status: number; account: string }) => [e.status, e.account])).toEqual([[502, 'demo']]);
    expect((await oz('GET', `/sessions/${id}/clock`)).body).toMatchObject({ now: '2026-11-23T12:00:00.000Z', frozen: true });
    expect((await oz('POST', `/sessions/${id}/clock/advance`, { ms: 1000 })).body.now).toBe('2026-11-23T12:00:01.000Z');
    expect((await oz('POST', `/sessions/${id}/reset`)).status).toBe(200);
    expect((await oz('GET', `/sessions/${id}/journal`)).body.data).toEqual([]);
    expect((await oz('POST', `/sessions/${id}/fixtures`, { tools: [{ name: 'only_here', answer: 'x' }] })).status).toBe(200);
    expect((await oz('GET', `/sessions/${id}/state`)).body.tools.map((t: { name: string }) => t.name)).toContain('only_here');
    expect((await oz('POST', `/sessions/${id}/idle`)).status).toBe(200);

    expect((await oz('DELETE', `/sessions/${id}`)).status).toBe(200);
    expect((await api('/v1/tools')).status).toBe(401);
    expect((await oz('GET', `/sessions/${id}/journal`)).body.error.code).toBe('session_not_found');
    expect((await oz('DELETE', `/sessions/${id}`)).status).toBe(404);
  });

  it('answers 429 rate_limited past --max-sessions, 422 for a bad body, 404 for an unknown session', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await oz('POST', '/sessions')).body.id as string);
    const refused = await oz('POST', '/sessions');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    for (const id of ids) await oz('DELETE', `/sessions/${id}`);
    expect((await oz('POST', '/sessions', { colour: 'red' })).body.error).toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/colour/) });
    expect((await oz('POST', '/sessions', { clock: { start: 'yesterday' } })).status).toBe(422);
    expect((await oz('POST', '/sessions', { fixtures: { tools: [{ name: 'x', answer: 1 }] } })).body.error.message).toMatch(/tools\[0\]\.answer/);
    expect((await oz('POST', '/sessions/ses_nope/reset')).status).toBe(404);
    expect((await oz('GET', '/sessions')).body.data).toEqual([]);
  });

  it('connectOzMock(...).session() has the same controls, acting on the session', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    const session = await mock.session();
    expect(session.apiKey).toMatch(/^ozk_/);
    await session.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' });
    expect((await mock.faults.list()).length).toBe(0);
    expect((await session.faults.list()).map((f) => f.hits)).toEqual([0]);
    expect((await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${session.apiKey}` } })).status).toBe(503);
    expect(await session.journal.count({ account: 'demo' })).toBe(1);
    await session.reset();
    expect(await session.journal.count()).toBe(0);
    await session.close();
    await session.close(); // twice is fine
    await expect(session.reset()).rejects.toMatchObject({ status: 404, code: 'session_not_found' });
  });

  it('the control plane document lists every session route, derived from the scoped routes', () => {
    const paths = Object.keys(CONTROL_OPENAPI.paths);
    for (const p of ['/_oz/sessions', '/_oz/sessions/{session}', '/_oz/stubs', '/_oz/stubs/{id}', '/_oz/unused']) expect(paths).toContain(p);
    for (const scoped of [
      'reset',
      'baseline',
      'fixtures',
      'state',
      'faults',
      'faults/{id}',
      'stubs',
      'stubs/{id}',
      'clock',
      'clock/advance',
      'idle',
      'journal',
      'keys',
      'keys/{id}/revoke',
      'items/{id}',
      'items/{id}/park',
      'unused',
    ]) {
      expect(paths).toContain(`/_oz/sessions/{session}/${scoped}`);
    }
    for (const unscoped of ['settings', 'state/save', 'dashboard/sign-in-as', 'openapi.json', 'sessions'])
      expect(paths).not.toContain(`/_oz/sessions/{session}/${unscoped}`);
  });
});
