/** One name for a key's value over HTTP (`api_key`), `value` still read; `apiKey` in JavaScript. */
import { describe, expect, it } from 'vitest';
import { connectOzMock } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();
const FIXED = 'ozk_KeyNameKeyNameKeyNameKeyName0001';

async function plane() {
  const server = servers.create();
  const listener = await server.listen();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${listener.url}/_oz${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return { server, listener, post };
}

describe('a key\'s value is api_key on the control plane', () => {
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
    await session.close();
  });
});
