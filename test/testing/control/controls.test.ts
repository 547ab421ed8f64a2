/**
 * One test file, two servers: every test here runs against `createOzServer()` in process and against a
 * spawned `oz-mock` driven through `connectOzMock()`; both are typed as the shared `OzControls`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectOzMock, createOzServer, OzMockError, OzVerificationError, type OzControls, type OzServer } from '../../../src/testing/index.js';
import { ROOT, startOzMock, type SpawnedOzMock } from './spawnOzMock.js';

const FIXTURE_FILE = join(ROOT, 'test/testing/fixtures/control/shop.yaml');
const SHOP_KEY = 'ozk_ShopShopShopShopShopShopShop0001';
const START = '2026-11-22T09:30:00.000Z';

interface Target {
  readonly controls: OzControls;
  /** One request to the API with the shop key (or another key). */
  api(method: string, path: string, body?: unknown, key?: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<unknown>;
}

async function inProcess(): Promise<Target> {
  const server: OzServer = createOzServer({ clock: { start: START, frozen: true }, fixtures: readFileSync(FIXTURE_FILE, 'utf8') });
  // The in-process server is the shared controls as it is (a compile-time check too).
  const controls: OzControls = server;
  return {
    controls,
    api: (method, path, body, key = SHOP_KEY, headers = {}) =>
      server.fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
    close: () => server.close(),
  };
}

async function remote(): Promise<Target> {
  const { mock, line } = await startOzMock(['--fixtures', FIXTURE_FILE, '--frozen-clock', '--clock-start', START]);
  const controls: OzControls = connectOzMock({ url: line.url, adminToken: line.adminToken! });
  return {
    controls,
    api: (method, path, body, key = SHOP_KEY, headers = {}) =>
      fetch(`${line.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
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
    expect((await banned.json()) as unknown).toMatchObject({ error: { code: 'connection_required', message: 'banned needs the supplier connection', connect: { provider: 'supplier', method: 'oauth' }, hint: 'Link the supplier first.' } });
    const missing = await t.api('POST', '/v1/tools/quote/execute', {});
    expect(missing.status).toBe(422);
  });

  it('adds a fixture document at run time, and refuses a bad one whole, naming the field', async () => {
    await t.controls.loadFixtures({ tools: [{ name: 'ping', answer: 'pong {{n}}' }] });
    expect(await (await t.api('POST', '/v1/tools/ping/execute?format=text', { n: 1 })).text()).toBe('pong 1');
    const bad = await Promise.resolve()
      .then(() => t.controls.loadFixtures({ accounts: [{ name: 'fresh' }], tools: [{ name: 'a', answer: 'x' }, { name: 'b', answer: 'y' }, { name: 'c', answer: 42 as unknown as string }] }))
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
    await t.controls.stubs.add({ operationId: 'getTool', match: { path: { tool: 'quotes' } }, answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'No tool quotes.' } } } });
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
});
