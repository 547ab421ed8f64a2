// One test file, two servers: the same tests run against createOzServer() in process and against an oz-mock driven
// over HTTP through connectOzMock(). Both are typed as OzControls; `await` every call.
// #region imports
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Oz, UnauthorizedError } from 'oz-sdk';
import { connectOzMock, createOzServer, type OzControls } from 'oz-sdk/testing';
// #endregion

// #region two-surfaces
const local = createOzServer({ clock: { frozen: true } });
const remoteServer = createOzServer({ clock: { frozen: true } }); // stands in for `npx oz-mock`
const listener = await remoteServer.listen();
// Each surface: its controls, and a client with a key (default: the demo key).
const surfaces: Array<[string, OzControls, (apiKey?: string) => Oz]> = [
  ['in process', local, (apiKey = local.apiKey) => new Oz({ baseURL: local.url, apiKey, fetch: local.fetch, maxRetries: 0, logLevel: 'off' })],
  [
    'over HTTP',
    connectOzMock({ url: listener.url, adminToken: remoteServer.adminToken! }),
    (apiKey = remoteServer.apiKey) => new Oz({ baseURL: listener.url, apiKey, maxRetries: 0, logLevel: 'off' }),
  ],
];
// #endregion

afterAll(async () => {
  await listener.close();
  await Promise.all([local.close(), remoteServer.close()]);
});

describe.each(surfaces)('%s', (_, controls, clientWith) => {
  const oz = clientWith();
  beforeEach(() => controls.reset());

  it('journals headers as a plain record of lower-case names', async () => {
    // #region journal-headers
    await oz.tools.execute('echo', { text: 'hi' }, { headers: { 'X-Team': 'billing' } });
    const entry = await controls.journal.last('executeTool');
    expect(entry?.headers['x-team']).toBe('billing'); // over HTTP, key values read `ozk_abcd…`
    expect(entry?.replayed).toBe(false);
    // #endregion
  });

  it('adds, lists and revokes keys', async () => {
    // #region keys
    const added = await controls.keys.add({ account: 'demo', name: 'ci', expiresInDays: 30 }); // apiKey: fix the value
    const client = clientWith(added.apiKey);
    expect((await client.tools.list()).data.length).toBeGreaterThan(0);
    const listed = await controls.keys.list({ account: 'demo' }); // never a value: its preview, ozk_…WxYz
    expect(listed.map((k) => k.name)).toContain('ci');
    await controls.keys.revoke(added.id);
    await controls.clock.advance(120_000); // a revoked key works for the key cache's time (keyCacheMs)
    await expect(client.tools.list()).rejects.toBeInstanceOf(UnauthorizedError);
    // #endregion
  });

  it('links and unlinks connections', async () => {
    // #region connections
    await expect(oz.tools.execute('crm_lookup', { query: 'Ada' })).rejects.toMatchObject({ status: 424, code: 'connection_required' });
    await controls.connections.link('demo', 'crm'); // { method: 'oauth', status: 'linked' } by default
    expect((await oz.tools.execute('crm_lookup', { query: 'Ada' })).content).toContain('found');
    expect(await controls.connections.list({ account: 'demo' })).toEqual([{ account: 'demo', provider: 'crm', method: 'oauth', status: 'linked' }]);
    await controls.connections.unlink('demo', 'crm');
    // #endregion
  });

  it('arms one fault of each type with its fields', async () => {
    // #region fault-fields
    await controls.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 2, message: 'Slow down.', times: 1 });
    await controls.faults.add({ operationId: 'getTool', type: 'delay', ms: 1_500 });
    await controls.faults.add({ operationId: 'listTools', type: 'drop' });
    await controls.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 3 }); // after 3 stream events
    await controls.faults.add({ operationId: 'createCompanyItem', type: 'lose', account: 'demo', body: { title: 'Once' } });
    // #endregion
    expect((await controls.unused()).faults.map((f) => f.id)).toHaveLength(5);
    await controls.faults.clear();
  });

  it('makes a session with keys of its own', async () => {
    // #region session
    const session = await controls.session();
    const client = clientWith(session.apiKey); // its copy of the demo key
    await client.tools.execute('echo', { text: 'only in the session' });
    expect(await session.journal.count('executeTool')).toBe(1);
    expect(await controls.journal.count('executeTool')).toBe(0);
    expect(session.keys.map((k) => k.apiKey)).toContain(session.apiKey);
    await session.close();
    // #endregion
  });
});

it('lists over HTTP in the envelope { data: [...] }', async () => {
  // #region listing-envelope
  const listed = await fetch(`${listener.url}/_oz/keys?account=demo`, { headers: { authorization: `Bearer ${remoteServer.adminToken}` } });
  const { data } = (await listed.json()) as { data: Array<{ id: string; name: string; preview: string; revoked_at: string | null }> };
  expect(data.map((k) => k.name)).toEqual(['demo key', 'legacy models key', 'legacy proxy key']);
  // #endregion
});
