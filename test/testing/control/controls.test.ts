/**
 * One test file, two servers: every test here runs against `createOzServer()` in process and against a
 * spawned `oz-mock` driven through `connectOzMock()`; both are typed as the shared `OzControls`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Oz, UnauthorizedError } from '../../../src/index.js';
import { connectOzMock, createOzServer, OzMockError, OzVerificationError, type OzControls, type OzServer } from '../../../src/testing/index.js';
import { ROOT, startOzMock, type SpawnedOzMock } from './spawnOzMock.js';

const FIXTURE_FILE = join(ROOT, 'test/testing/fixtures/control/shop.yaml');
const SHOP_KEY = 'ozk_ShopShopShopShopShopShopShop0001';
const START = '2026-11-22T09:30:00.000Z';

interface Target {
  readonly controls: OzControls;
  /** One request to the API with the shop key (or another key). */
  api(method: string, path: string, body?: unknown, key?: string, headers?: Record<string, string>): Promise<Response>;
  /** The SDK's client on this server with a key. */
  sdk(key: string): Oz;
  close(): Promise<unknown>;
}

async function inProcess(): Promise<Target> {
  const server: OzServer = createOzServer({ clock: { start: START, frozen: true }, fixtures: readFileSync(FIXTURE_FILE, 'utf8') });
  // The in-process server is the shared controls as it is (a compile-time check too).
  const controls: OzControls = server;
  return {
    controls,
    api: (method, path, body, key = SHOP_KEY, headers = {}) =>
      server.fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    sdk: (key) => new Oz({ baseURL: server.url, apiKey: key, fetch: server.fetch, maxRetries: 0, logLevel: 'off' }),
    close: () => server.close(),
  };
}

async function remote(): Promise<Target> {
  const { mock, line } = await startOzMock(['--fixtures', FIXTURE_FILE, '--frozen-clock', '--clock-start', START]);
  const controls: OzControls = connectOzMock({ url: line.url, adminToken: line.adminToken! });
  return {
    controls,
    api: (method, path, body, key = SHOP_KEY, headers = {}) =>
      fetch(`${line.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    sdk: (key) => new Oz({ baseURL: line.url, apiKey: key, maxRetries: 0, logLevel: 'off' }),
    close: () => (mock as SpawnedOzMock).stop(),
  };
}

describe.each([
  ['in process (createOzServer)', inProcess],
  ['over HTTP (oz-mock + connectOzMock)', remote],
])('the shared controls, %s', (_, make) => {
  let t: Target;
  beforeAll(async () => {
    t = await make();
  });
  afterAll(() => t.close());
  beforeEach(() => t.controls.reset());

  it('serves the fixture file: a declared tool answers its template, its cases, and the envelope of a declared error', async () => {
    const tea = await t.api('POST', '/v1/tools/quote/execute?format=text', { product: 'tea' });
    expect(await tea.text()).toBe('Price of tea: 10 USD');
    const gold = await t.api('POST', '/v1/tools/quote/execute', { product: 'gold' });
    expect(await gold.json()).toMatchObject({ content: 'Price of gold: 2000 USD' });
    const banned = await t.api('POST', '/v1/tools/quote/execute', { product: 'banned' });
    expect(banned.status).toBe(424);
    expect((await banned.json()) as unknown).toMatchObject({
      error: {
        code: 'connection_required',
        message: 'banned needs the supplier connection',
        connect: { provider: 'supplier', method: 'oauth' },
        hint: 'Link the supplier first.',
      },
    });
    const missing = await t.api('POST', '/v1/tools/quote/execute', {});
    expect(missing.status).toBe(422);
  });

  it('adds a fixture document at run time, and refuses a bad one whole, naming the field', async () => {
    await t.controls.loadFixtures({ tools: [{ name: 'ping', answer: 'pong {{n}}' }] });
    expect(await (await t.api('POST', '/v1/tools/ping/execute?format=text', { n: 1 })).text()).toBe('pong 1');
    const bad = await Promise.resolve()
      .then(() =>
        t.controls.loadFixtures({
          accounts: [{ name: 'fresh' }],
          tools: [
            { name: 'a', answer: 'x' },
            { name: 'b', answer: 'y' },
            { name: 'c', answer: 42 as unknown as string },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OzMockError);
    expect(bad).toMatchObject({ status: 422, code: 'invalid_params' });
    expect((bad as Error).message).toMatch(/^tools\[2\]\.answer must be a string/);
    // Nothing of it was added: the account and the first tools are not there.
    const state = await t.controls.exportState();
    expect(state.accounts.map((a) => a.name)).not.toContain('fresh');
    expect(state.tools.map((x) => x.name)).not.toContain('a');
  });

  it('injects a 429 with Retry-After on one operation only, and journals it', async () => {
    await t.controls.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 7, times: 1 });
    const health = await t.api('GET', '/health');
    expect(health.status).toBe(200);
    const faulted = await t.api('POST', '/v1/tools/quote/execute', { product: 'tea' });
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get('retry-after')).toBe('7');
    const after = await t.api('POST', '/v1/tools/quote/execute', { product: 'tea' });
    expect(after.status).toBe(200);
    const entries = await t.controls.journal.filter('executeTool');
    expect(entries.map((e) => [e.status, e.fault])).toEqual([
      [429, 'error'],
      [200, null],
    ]);
    expect(await t.controls.journal.count({ method: 'GET', path: '/health' })).toBe(1);
    expect((await t.controls.journal.last('executeTool'))?.body).toBe('{"product":"tea"}');
  });

  it('lists an unused stub with its near miss (path.tool), and verify() throws naming the closest entry', async () => {
    await t.controls.stubs.add({
      operationId: 'getTool',
      match: { path: { tool: 'quotes' } },
      answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'No tool quotes.' } } },
    });
    await t.api('GET', '/v1/tools/quote');
    const { stubs } = await t.controls.unused();
    expect(stubs[0]!.nearMisses[0]!.differences).toEqual([{ path: 'path.tool', expected: 'quotes', actual: 'quote' }]);
    await t.controls.journal.verify({ operationId: 'getTool', status: 200 }, { times: 1 });
    const failed = await Promise.resolve()
      .then(() => t.controls.journal.verify({ operationId: 'getTool', path: '/v1/tools/quotes' }))
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OzVerificationError);
    expect((failed as OzVerificationError).message).toContain('path expected "/v1/tools/quotes", got "/v1/tools/quote"');
  });

  it('journals a replayed write as replayed', async () => {
    const create = () => t.api('POST', '/v1/companies/shopco/items', { building: 'hq', title: 'Once' }, SHOP_KEY, { 'x-trace-id': 'same-trace-1' });
    const first = (await (await create()).json()) as { id: string };
    const again = await create();
    expect(((await again.json()) as { id: string }).id).toBe(first.id);
    const entries = await t.controls.journal.filter('createCompanyItem');
    expect(entries.map((e) => [e.status, e.replayed])).toEqual([
      [201, false],
      [201, true],
    ]);
  });

  it('refuses a fault with an unknown operationId (a typo never arms a fault that cannot fire)', async () => {
    const err = await Promise.resolve()
      .then(() => t.controls.faults.add({ operationId: 'executeTools' as 'executeTool', type: 'error', status: 500, code: 'internal_error' }))
      .catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/operationId names no operation of openapi.json: executeTools/);
    expect((await t.api('POST', '/v1/tools/quote/execute', { product: 'tea' })).status).toBe(200);
  });

  it('loses an answer: the run happens and is recorded, the caller sees the connection drop', async () => {
    await t.controls.faults.add({ operationId: 'executeTool', type: 'lose' });
    await expect(t.api('POST', '/v1/tools/quote/execute', { product: 'tea' })).rejects.toThrow(/fetch failed/);
    const lost = await t.controls.journal.last('executeTool');
    expect(lost).toMatchObject({ status: 200, fault: 'lose' });
    const record = await t.api('GET', `/v1/executions/${lost!.executionId}`);
    expect(await record.json()).toMatchObject({ status: 'succeeded', content: 'Price of tea: 10 USD' });
  });

  it('advances a frozen clock three hours past the hourly schedule: it fires once per occurrence, three times', async () => {
    const before = await t.controls.clock.now();
    expect(new Date(before).toISOString()).toBe(START);
    const none = (await (await t.api('GET', '/v1/executions')).json()) as { data: unknown[] };
    expect(none.data).toHaveLength(0);
    await t.controls.clock.advance(3 * 3_600_000);
    await t.controls.idle();
    expect(await t.controls.clock.now()).toBe(before + 3 * 3_600_000);
    const runs = (await (await t.api('GET', '/v1/executions')).json()) as { data: Array<{ target: string; status: string; content: string }> };
    // 10:00, 11:00 and 12:00 fall in the window from 09:30.
    expect(runs.data).toHaveLength(3);
    for (const run of runs.data) expect(run).toMatchObject({ target: 'quote', status: 'succeeded', content: 'Price of tea: 10 USD' });
  });

  it('resets to the baseline: the fixtures stay, what came later goes, and baseline() moves the line', async () => {
    await t.controls.loadFixtures({ accounts: [{ name: 'later' }], keys: [{ account: 'later', value: 'ozk_LaterLaterLaterLaterLaterLater01' }] });
    expect((await t.api('GET', '/v1/tools', undefined, 'ozk_LaterLaterLaterLaterLaterLater01')).status).toBe(200);
    await t.controls.reset();
    expect((await t.api('GET', '/v1/tools', undefined, 'ozk_LaterLaterLaterLaterLaterLater01')).status).toBe(401);
    expect((await t.api('GET', '/v1/tools')).status).toBe(200);
    expect(await t.controls.journal.count()).toBe(2); // the two requests since the reset

    await t.controls.loadFixtures({ accounts: [{ name: 'kept' }], keys: [{ account: 'kept', value: 'ozk_KeptKeptKeptKeptKeptKeptKept0001' }] });
    await t.controls.baseline();
    await t.controls.reset();
    expect((await t.api('GET', '/v1/tools', undefined, 'ozk_KeptKeptKeptKeptKeptKeptKept0001')).status).toBe(200);
  });

  it('exports the state and imports it back (a declared tool included)', async () => {
    await t.controls.loadFixtures({ tools: [{ name: 'saved', answer: 'still here' }] });
    const saved = await t.controls.exportState();
    expect(saved).toMatchObject({ format: 'oz-mock-state', version: 1 });
    await t.controls.reset();
    expect((await t.api('POST', '/v1/tools/saved/execute', {})).status).toBe(404);
    await t.controls.importState(saved);
    expect(await (await t.api('POST', '/v1/tools/saved/execute?format=text', {})).text()).toBe('still here');
    const foreign = await Promise.resolve()
      .then(() => t.controls.importState({ format: 'other' } as never))
      .catch((e: unknown) => e);
    expect(foreign).toMatchObject({ status: 422, code: 'invalid_params' });
    expect((foreign as Error).message).toMatch(/Not an oz-mock state document/);
  });

  it('streams a declared agent as its tokens', async () => {
    // The stream paces its tokens on the frozen clock: move it until the stream ends.
    let text: string | null = null;
    const pending = t.api('POST', '/v1/execute', { agent: 'clerk', user_request: 'hi', stream: true }).then(async (res) => (text = await res.text()));
    while (text === null) await Promise.race([pending, t.controls.clock.advance(5).then(() => new Promise((r) => setTimeout(r, 5)))]);
    const deltas = [...(text as string).matchAll(/event: token\ndata: (.*)/g)].map((m) => (JSON.parse(m[1]!) as { delta: string }).delta);
    expect(deltas).toEqual(['Hel', 'lo ', 'from ', 'the ', 'clerk']);
  });

  it('journals the request headers as one plain record of lower-case names, with the header filter', async () => {
    await t.api('POST', '/v1/tools/quote/execute', { product: 'tea' }, SHOP_KEY, { 'X-Trace-Id': 'trace-headers-1', 'X-Team': 'billing' });
    const entry = await t.controls.journal.last('executeTool');
    expect(entry?.headers['x-trace-id']).toBe('trace-headers-1');
    expect(entry?.headers['x-team']).toBe('billing');
    expect(entry?.headers['content-type']).toBe('application/json');
    expect(entry?.headers.authorization).toMatch(/^Bearer ozk_Shop/);
    expect(entry?.headers.constructor).toBeUndefined();
    expect(Object.keys(entry!.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(JSON.parse(JSON.stringify(entry!.headers))).toEqual({ ...entry!.headers });
    expect(await t.controls.journal.count({ header: 'X-Team:billing' })).toBe(1);
    expect(await t.controls.journal.count({ header: 'x-team:other' })).toBe(0);
  });

  it('gives the journal as HAR 1.2: each request with its operation and status, credentials <redacted>, no key anywhere', async () => {
    await t.api('POST', '/v1/tools/quote/execute', { product: 'tea' });
    await t.api('GET', '/v1/tools');
    const har = await t.controls.journal.toHAR();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => [e._operationId, e.request.method, e.response.status])).toEqual([
      ['executeTool', 'POST', 200],
      ['listTools', 'GET', 200],
    ]);
    expect(har.log.entries[0]!.request.headers.find((h) => h.name === 'authorization')?.value).toBe('<redacted>');
    expect(har.log.entries[0]!.request.postData?.text).toBe('{"product":"tea"}');
    expect(JSON.stringify(har)).not.toContain(SHOP_KEY.slice(4));
  });

  it('adds a key (apiKey fixed or new), lists it by its preview, and a revoked key answers 401 through the SDK once the key cache time has passed', async () => {
    const fixed = 'ozk_AddedAddedAddedAddedAddedAdd0001';
    const added = await t.controls.keys.add({ account: 'shop', name: 'added', apiKey: fixed });
    expect(added).toMatchObject({ account: 'shop', name: 'added', apiKey: fixed, tier: 'pro', expires_at: null });
    const fresh = await t.controls.keys.add({ account: 'shop', name: 'fresh', expiresInDays: 7 });
    expect(fresh.apiKey).toMatch(/^ozk_[A-Za-z0-9]{32}$/);
    expect(Date.parse(fresh.expires_at!) - (await t.controls.clock.now())).toBe(7 * 86_400_000);
    expect((await t.sdk(fresh.apiKey).tools.list()).data.map((tool) => tool.name)).toContain('quote');

    const listed = await t.controls.keys.list({ account: 'shop' });
    expect(listed.map((k) => [k.name, k.preview, k.revoked_at])).toEqual([
      ['shop key', 'ozk_…0001', null],
      ['added', 'ozk_…0001', null],
      ['fresh', `ozk_…${fresh.apiKey.slice(-4)}`, null],
    ]);
    expect(JSON.stringify(listed)).not.toContain(fresh.apiKey);
    expect((await t.controls.keys.list()).length).toBeGreaterThan(listed.length);

    await t.controls.keys.revoke(fresh.id);
    expect((await t.controls.keys.list({ account: 'shop' })).find((k) => k.id === fresh.id)?.revoked_at).toBe(
      new Date(await t.controls.clock.now()).toISOString(),
    );
    await t.controls.clock.advance(120_001);
    await expect(t.sdk(fresh.apiKey).tools.list()).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await t.sdk(added.apiKey).tools.list()).data.length).toBeGreaterThan(0);
  });

  it('refuses bad key controls with typed errors: an unknown account (422), a malformed apiKey (422), an unknown key id (404)', async () => {
    const failure = (work: () => unknown) =>
      Promise.resolve()
        .then(work)
        .catch((e: unknown) => e);
    const noAccount = await failure(() => t.controls.keys.add({ account: 'nobody' }));
    expect(noAccount).toBeInstanceOf(OzMockError);
    expect(noAccount).toMatchObject({ status: 422, code: 'invalid_params', message: 'account names no account: nobody.' });
    const badValue = await failure(() => t.controls.keys.add({ account: 'shop', apiKey: 'sk-mdl-notaplatformkeyatall000000000' }));
    expect(badValue).toMatchObject({ status: 422, code: 'invalid_params' });
    expect(await failure(() => t.controls.keys.list({ account: 'nobody' }))).toMatchObject({ status: 422, code: 'invalid_params' });
    const inUse = await failure(() => t.controls.keys.add({ account: 'shop', apiKey: SHOP_KEY }));
    expect(inUse).toMatchObject({ status: 422, code: 'invalid_params' });
    expect((inUse as Error).message).toMatch(/^(apiKey|api_key): that key value is in use already in this server/); // each surface names its own field
    const unknown = await failure(() => t.controls.keys.revoke('key_nothing'));
    expect(unknown).toBeInstanceOf(OzMockError);
    expect(unknown).toMatchObject({ status: 404, code: 'key_not_found' });
    expect((await t.controls.keys.list({ account: 'shop' })).map((k) => k.name)).toEqual(['shop key']);
  });

  it("links, lists and unlinks an account's connection: a tool that needs it answers 424 without it", async () => {
    expect(await t.controls.connections.list({ account: 'shop' })).toEqual([{ account: 'shop', provider: 'warehouse', method: 'oauth', status: 'linked' }]);
    expect((await t.api('POST', '/v1/tools/inventory/execute', { sku: 'a1' })).status).toBe(200);
    await t.controls.connections.unlink('shop', 'warehouse');
    expect(await t.controls.connections.list({ account: 'shop' })).toEqual([]);
    const blocked = await t.api('POST', '/v1/tools/inventory/execute', { sku: 'a1' });
    expect(blocked.status).toBe(424);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('connection_required');
    expect(await t.controls.connections.link('shop', 'warehouse', { method: 'api_key' })).toEqual({
      account: 'shop',
      provider: 'warehouse',
      method: 'api_key',
      status: 'linked',
    });
    expect((await t.api('POST', '/v1/tools/inventory/execute', { sku: 'a1' })).status).toBe(200);
    await t.controls.connections.link('shop', 'supplier', { status: 'pending' });
    expect((await t.controls.connections.list()).filter((c) => c.account === 'shop').map((c) => [c.provider, c.status])).toEqual([
      ['warehouse', 'linked'],
      ['supplier', 'pending'],
    ]);
  });

  it('refuses bad connection controls with typed errors: an unknown account or method (422), a connection that is not there (404)', async () => {
    const failure = (work: () => unknown) =>
      Promise.resolve()
        .then(work)
        .catch((e: unknown) => e);
    expect(await failure(() => t.controls.connections.link('nobody', 'crm'))).toMatchObject({
      status: 422,
      code: 'invalid_params',
      message: 'account names no account: nobody.',
    });
    expect(await failure(() => t.controls.connections.link('shop', 'crm', { method: 'pigeon' as 'oauth' }))).toMatchObject({
      status: 422,
      code: 'invalid_params',
      message: 'method must be one of: oauth, api_key, wallet.',
    });
    expect(await failure(() => t.controls.connections.link('shop', 'bad provider'))).toMatchObject({ status: 422, code: 'invalid_params' });
    expect(await failure(() => t.controls.connections.list({ account: 'nobody' }))).toMatchObject({ status: 422, code: 'invalid_params' });
    const missing = await failure(() => t.controls.connections.unlink('shop', 'crm'));
    expect(missing).toBeInstanceOf(OzMockError);
    expect(missing).toMatchObject({ status: 404, code: 'connection_not_found' });
    expect(await t.controls.connections.list({ account: 'shop' })).toHaveLength(1);
  });

  it('makes a session: its own keys (apiKey each), journal, fixtures, keys and connections; closing it makes its keys answer 401', async () => {
    const session = await t.controls.session({ fixtures: { tools: [{ name: 'only-here', answer: 'session tool' }] } });
    expect(session.id).toMatch(/^ses_/);
    expect(session.apiKey).toMatch(/^ozk_/);
    const shop = session.keys.find((k) => k.account === 'shop')!;
    expect(shop).toMatchObject({ name: 'shop key', kind: 'platform' });
    expect(shop.apiKey).not.toBe(SHOP_KEY);
    expect(await (await t.api('POST', '/v1/tools/only-here/execute?format=text', {}, shop.apiKey)).text()).toBe('session tool');
    expect((await t.api('POST', '/v1/tools/only-here/execute', {})).status).toBe(404);
    expect(await session.journal.count('executeTool')).toBe(1);
    expect(await t.controls.journal.count('executeTool')).toBe(1);

    const added = await session.addKey({ account: 'shop', name: 'in session' });
    expect((await session.listKeys({ account: 'shop' })).map((k) => k.name)).toEqual(['shop key', 'in session']);
    expect((await t.controls.keys.list({ account: 'shop' })).map((k) => k.name)).toEqual(['shop key']);
    expect((await t.sdk(added.apiKey).tools.list()).data.length).toBeGreaterThan(0);
    await session.revokeKey(added.id);
    await session.connections.unlink('shop', 'warehouse');
    expect(await session.connections.list({ account: 'shop' })).toEqual([]);
    expect(await t.controls.connections.list({ account: 'shop' })).toHaveLength(1);

    await session.close();
    await expect(t.sdk(shop.apiKey).tools.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('answers a stub, lists it with its hits, and clears it', async () => {
    await t.controls.stubs.add({
      operationId: 'getTool',
      match: { path: { tool: 'quote' } },
      answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'Stubbed away.' } } },
      times: 2,
    });
    const stubbed = await t.api('GET', '/v1/tools/quote');
    expect(stubbed.status).toBe(404);
    expect(await stubbed.json()).toMatchObject({ error: { code: 'tool_not_found', message: 'Stubbed away.' } });
    expect((await t.controls.stubs.list()).map((s) => [s.operationId, s.hits, s.remaining])).toEqual([['getTool', 1, 1]]);
    await t.controls.stubs.clear();
    expect(await t.controls.stubs.list()).toEqual([]);
    expect((await t.api('GET', '/v1/tools/quote')).status).toBe(200);
    expect(await t.controls.unused()).toEqual({ faults: [], stubs: [] });
  });

  it('cuts a stream after afterEvents events (the cut fault), and lists a fault that never fired as unused', async () => {
    await t.controls.faults.add({ operationId: 'executeAgent', type: 'cut', afterEvents: 2 });
    await t.controls.faults.add({ operationId: 'getTool', type: 'error', status: 500, code: 'internal_error' });
    let text: string | null = null;
    const pending = t
      .api('POST', '/v1/execute', { agent: 'clerk', user_request: 'hi', stream: true })
      .then(async (res) => (text = await res.text().catch(() => 'cut')));
    while (text === null) await Promise.race([pending, t.controls.clock.advance(5).then(() => new Promise((r) => setTimeout(r, 5)))]);
    expect((await t.controls.journal.last('executeAgent'))?.fault).toBe('cut');
    const { faults } = await t.controls.unused();
    expect(faults.map((f) => f.id)).toHaveLength(1);
    expect(faults[0]).toMatchObject({ operationId: 'getTool', nearMisses: [] });
    await t.controls.faults.clear();
    expect((await t.controls.unused()).faults).toEqual([]);
  });
});
