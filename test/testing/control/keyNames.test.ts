/** One name for a key's value over HTTP (`api_key`), `value` still read; `apiKey` in JavaScript. */
import { describe, expect, it } from 'vitest';
import { connectOzMock, OzNoDemoKeyError, type OzServerOptions } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();
const FIXED = 'ozk_KeyNameKeyNameKeyNameKeyName0001';

async function plane(options: OzServerOptions = {}) {
  const server = servers.create(options);
  const listener = await server.listen();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${listener.url}/_oz${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${listener.url}/_oz${path}`, {
      method,
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return { server, listener, post, send };
}

describe("a key's value is api_key on the control plane", () => {
  it('POST /_oz/keys takes api_key (and its old name value) and answers api_key; both at once is 422', async () => {
    const { server, post } = await plane();
    const made = await post('/keys', { account: 'demo', api_key: FIXED });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ api_key: FIXED, key: FIXED, account: 'demo' });
    const old = await post('/keys', { account: 'demo', value: 'ozk_KeyNameKeyNameKeyNameKeyName0002' });
    expect(old.body.api_key).toBe('ozk_KeyNameKeyNameKeyNameKeyName0002');
    const both = await post('/keys', { account: 'demo', api_key: FIXED, value: FIXED });
    expect([both.status, both.body.error.code]).toEqual([422, 'invalid_params']);
    const bad = await post('/keys', { account: 'demo', api_key: 'nope' });
    expect([bad.status, bad.body.error.message]).toEqual([422, expect.stringMatching(/^api_key /)]);
    expect((await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${FIXED}` } })).status).toBe(200);
  });

  it('a session lists its keys with api_key; connectOzMock gives apiKey', async () => {
    const { server, listener, post } = await plane();
    const created = await post('/sessions', {});
    expect(created.body.keys[0]).toMatchObject({ api_key: expect.stringMatching(/^(ozk_|sk-)/) });
    expect(created.body.keys[0].api_key).toBe(created.body.keys[0].value);
    const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
    const session = await mock.session();
    expect(session.keys.find((k) => k.kind === 'platform' && k.account === 'demo')!.apiKey).toBe(session.apiKey);
    const key = await mock.keys.add({ account: 'demo', api_key: 'ozk_KeyNameKeyNameKeyNameKeyName0003' });
    expect(key.apiKey).toBe('ozk_KeyNameKeyNameKeyNameKeyName0003');
    const camel = await mock.keys.add({ account: 'demo', apiKey: 'ozk_KeyNameKeyNameKeyNameKeyName0004', expiresInDays: 30 });
    expect(camel).toMatchObject({ apiKey: 'ozk_KeyNameKeyNameKeyNameKeyName0004', expires_at: expect.any(String) });
    expect(Object.keys(camel)).not.toContain('api_key');
    await session.close();
  });

  it("a session over HTTP on a server without the demo seed: api_key null, and connectOzMock's apiKey throws OzNoDemoKeyError", async () => {
    const { server, listener, post } = await plane({ seed: 'empty', fixtures: { accounts: [{ name: 'shop' }], keys: [{ account: 'shop', value: FIXED }] } });
    expect((await post('/sessions', {})).body).toMatchObject({ api_key: null, keys: [{ account: 'shop', api_key: expect.stringMatching(/^ozk_/) }] });
    const session = await connectOzMock({ url: listener.url, adminToken: server.adminToken! }).session();
    expect(() => session.apiKey).toThrow(OzNoDemoKeyError);
    expect(session.keys).toEqual([expect.objectContaining({ account: 'shop', apiKey: expect.stringMatching(/^ozk_/) })]);
    await session.close();
  });
});

describe("a fixture document's key takes api_key (value is its old name)", () => {
  it('loads a key by api_key in process and over HTTP; both names at once, or a bad value, fail naming keys[0].api_key', async () => {
    const { server, post } = await plane();
    server.loadFixtures({ accounts: [{ name: 'fx' }], keys: [{ account: 'fx', api_key: 'ozk_FixtureFixtureFixtureFixture0001' }] });
    expect((await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: 'Bearer ozk_FixtureFixtureFixtureFixture0001' } })).status).toBe(200);
    const overHttp = await post('/fixtures', { keys: [{ account: 'fx', api_key: 'ozk_FixtureFixtureFixtureFixture0002' }] });
    expect(overHttp.status).toBe(200);
    expect((await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: 'Bearer ozk_FixtureFixtureFixtureFixture0002' } })).status).toBe(200);
    const both = await post('/fixtures', {
      keys: [{ account: 'fx', api_key: 'ozk_FixtureFixtureFixtureFixture0003', value: 'ozk_FixtureFixtureFixtureFixture0003' }],
    });
    expect([both.status, both.body.error.code, both.body.error.message]).toEqual([
      422,
      'invalid_params',
      expect.stringMatching(/^keys\[0\]\.api_key and its old name value are both given/),
    ]);
    const bad = await post('/fixtures', { keys: [{ account: 'fx', api_key: 'ozk_short' }] });
    expect([bad.status, bad.body.error.message]).toEqual([422, expect.stringMatching(/^keys\[0\]\.api_key /)]);
    expect(() => server.loadFixtures({ keys: [{ account: 'fx', api_key: 'ozk_FixtureFixtureFixtureFixture0001' }] })).toThrow(
      /keys\[0\]\.api_key is in use already/,
    );
  });
});

describe('the key and connection routes refuse bad input with a typed error', () => {
  it('GET /_oz/keys and /_oz/connections take only account; POST /_oz/connections names a missing or unknown field', async () => {
    const { send } = await plane();
    for (const path of ['/keys?acount=demo', '/connections?acount=demo']) {
      const res = await send('GET', path);
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([422, 'invalid_params', 'acount is not a filter (known: account).']);
    }
    const noProvider = await send('POST', '/connections', { account: 'demo' });
    expect([noProvider.status, noProvider.body.error.message]).toEqual([422, 'provider is required (a string).']);
    const extra = await send('POST', '/connections', { account: 'demo', provider: 'crm', linked: true });
    expect([extra.status, extra.body.error.message]).toEqual([422, 'linked is not a field here (known: account, provider, method, status).']);
    const badStatus = await send('POST', '/connections', { account: 'demo', provider: 'crm', status: 'done' });
    expect([badStatus.status, badStatus.body.error.message]).toEqual([422, 'status must be one of: pending, linked.']);
    const gone = await send('DELETE', '/connections/demo/nothing');
    expect([gone.status, gone.body.error.code]).toEqual([404, 'connection_not_found']);
    const linked = await send('POST', '/connections', { account: 'demo', provider: 'crm' });
    expect([linked.status, linked.body]).toEqual([201, { account: 'demo', provider: 'crm', method: 'oauth', status: 'linked' }]);
    const listed = await send('GET', '/keys?account=demo');
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['demo key', 'legacy models key', 'legacy proxy key']);
  });
});
