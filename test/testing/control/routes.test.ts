/**
 * Every control-plane route over real HTTP (server.listen()), with its error paths, and the plane's security:
 * the admin token, platform keys, CORS, and the token never leaving the server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_TestTestTestTestTestTestTestTest';
let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-22T10:00:00Z', frozen: true } });
  listener = await server.listen();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function oz(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const res = await fetch(`${listener.url}/_oz${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

function api(method: string, path: string, body?: unknown, key = server.apiKey) {
  return fetch(`${listener.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('security of the control plane', () => {
  it('answers 401 without the admin token, with a wrong one, or with a platform key, and changes nothing', async () => {
    const before = server.exportState();
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: 'Bearer ozadm_WrongWrongWrongWrongWrongWrongWron' },
      { authorization: `Bearer ${server.apiKey}` },
      { authorization: 'Basic abc' },
    ]) {
      const r = await oz('POST', '/fixtures', { accounts: [{ name: 'intruder' }] }, headers);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
      expect(r.headers.get('x-error-code')).toBe('unauthorized');
      expect(r.text).not.toContain(TOKEN);
    }
    expect((await oz('POST', '/reset', undefined, { authorization: `Bearer ${server.apiKey}` })).body.error.message).toMatch(
      /API keys never open the control plane/,
    );
    expect({ ...server.exportState(), saved_at: '' }).toEqual({ ...before, saved_at: '' });
  });

  it('the admin token never opens the API, and never shows in the journal or an error', async () => {
    const res = await api('GET', '/v1/tools', undefined, TOKEN);
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).toMatch(/admin token opens only the control plane/);
    expect(text).not.toContain(TOKEN);
    const journal = await oz('GET', '/journal');
    expect(JSON.stringify(journal.body)).not.toContain(TOKEN);
    expect(journal.body.data.at(-1).headers.authorization).toBe('Bearer ozadm_…');
    // Control-plane requests themselves are not journaled.
    expect(journal.body.data.every((e: { path: string }) => !e.path.startsWith('/_oz'))).toBe(true);
  });

  it('redacts every key in journaled headers', async () => {
    await fetch(`${listener.url}/v1/tools`, { headers: { 'x-api-key': server.apiKey } });
    const entry = (await oz('GET', '/journal?operationId=listTools')).body.data[0];
    expect(entry.headers['x-api-key']).toBe(`${server.apiKey.slice(0, 8)}…`);
    expect(JSON.stringify(entry)).not.toContain(server.apiKey);
  });

  it('sends no CORS headers, and answers a preflight on /_oz/ with no CORS grant', async () => {
    const r = await oz('GET', '/clock', undefined, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${listener.url}/_oz/reset`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.status).toBe(401);
  });

  it('serves its OpenAPI 3.1 document without a token, and every other route needs one', async () => {
    const doc = await oz('GET', '/openapi.json', undefined, {});
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = doc.body.paths as Record<string, Record<string, { security?: unknown[] }>>;
    const routes = Object.entries(paths).flatMap(([p, item]) => Object.keys(item).map((m) => [m.toUpperCase(), p] as const));
    expect(routes.length).toBeGreaterThanOrEqual(26);
    // The open routes: this document, and the console's page, script and style sheet (they hold no data).
    const open = routes.filter(([method, path]) => paths[path]![method.toLowerCase()]!.security?.length === 0).map(([, path]) => path);
    expect(open.sort()).toEqual(['/_oz/openapi.json', '/_oz/ui', '/_oz/ui/console.css', '/_oz/ui/console.js']);
    for (const [method, path] of routes) {
      if (open.includes(path)) continue;
      const r = await fetch(`${listener.url}${path.replace(/\{id\}/, 'x')}`, { method });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });

  it('is off with adminToken: false: /_oz/ is an unknown route of the API', async () => {
    const off = createOzServer({ adminToken: false });
    expect(off.adminToken).toBeNull();
    const res = await off.fetch(`${off.url}/_oz/clock`, { headers: { authorization: `Bearer ${off.apiKey}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    await off.close();
  });

  it('answers 404 for an unknown route and 405 for a wrong method, as the envelope', async () => {
    expect((await oz('GET', '/nope')).body.error.code).toBe('not_found');
    const r = await oz('GET', '/reset');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error.code).toBe('method_not_allowed');
  });
});

describe('every route over HTTP', () => {
  it('POST /_oz/reset and POST /_oz/baseline', async () => {
    const seed = server.snapshot();
    await oz('POST', '/fixtures', { accounts: [{ name: 'a1' }] });
    expect((await oz('POST', '/reset')).body).toEqual({ ok: true });
    expect(server.exportState().accounts.map((a) => a.name)).toEqual(['demo', 'other']);
    await oz('POST', '/fixtures', { accounts: [{ name: 'a2' }] });
    expect((await oz('POST', '/baseline')).status).toBe(200);
    await oz('POST', '/fixtures', { accounts: [{ name: 'a3' }] });
    await oz('POST', '/reset');
    expect(server.exportState().accounts.map((a) => a.name)).toEqual(['demo', 'other', 'a2']);
    // Back to the seed for the other tests.
    server.restore(seed);
    server.baseline();
  });

  it('POST /_oz/fixtures: JSON and YAML; 422 names the path and adds nothing; 400 for unreadable text', async () => {
    const yaml = await fetch(`${listener.url}/_oz/fixtures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/yaml' },
      body: 'tools:\n  - name: hello\n    answer: "hi {{who}}"\n',
    });
    expect(await yaml.json()).toMatchObject({ tools: 1 });
    expect(await (await api('POST', '/v1/tools/hello/execute?format=text', { who: 'yaml' })).text()).toBe('hi yaml');
    const bad = await oz('POST', '/fixtures', {
      accounts: [{ name: 'x1' }],
      tools: [
        { name: 'ok', answer: 'a' },
        { name: 'ok2', answer: 'b' },
        { name: 'bad', answer: ['not text'] },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'invalid_params', param: 'tools[2].answer' });
    expect(server.exportState().accounts.map((a) => a.name)).not.toContain('x1');
    const refs = await oz('POST', '/fixtures', {
      keys: [{ account: 'ghost' }],
      schedules: [{ account: 'demo', name: 's', cron: 'nope', target: { kind: 'tool', name: 'echo' } }],
    });
    expect(refs.body.error.problems.map((p: { path: string }) => p.path)).toEqual(['keys[0].account', 'schedules[0].cron']);
    expect((await oz('POST', '/fixtures', '{"tools": [')).body.error.code).toBe('invalid_json');
    expect((await oz('POST', '/fixtures', '[1, 2]')).body.error.message).toMatch(/must be an object/);
  });

  it('GET and PUT /_oz/state; a foreign, truncated or newer document answers 422 and changes nothing', async () => {
    await api('POST', '/v1/companies/acme/items', { building: 'lab', title: 'kept in state' });
    const state = await oz('GET', '/state');
    expect(state.body).toMatchObject({ format: 'oz-mock-state', version: 1 });
    expect(state.body.items).toHaveLength(1);
    await oz('POST', '/reset');
    expect((await oz('PUT', '/state', state.body)).body).toEqual({ ok: true });
    const items = (await (await api('GET', '/v1/companies/acme/items')).json()) as { data: Array<{ title: string }> };
    expect(items.data.map((i) => i.title)).toEqual(['kept in state']);
    for (const [doc, message] of [
      [{ hello: 1 }, /Not an oz-mock state document/],
      [{ ...state.body, version: 2 }, /version 2 is not readable here/],
      [{ ...state.body, keys: undefined }, /keys must be a list/],
      [{ ...state.body, items: [{ id: 'itm_x' }] }, /items\[0\]\.account must be string/],
      [{ ...state.body, tools: [{ name: 'mystery', native: true }] }, /tools\[0\] is the tool mystery, written in code/],
      [{ ...state.body, tools: [{ name: 'decl', answer: 5 }] }, /tools\[0\]\.answer must be a string/],
    ] as const) {
      const r = await oz('PUT', '/state', doc);
      expect(r.status).toBe(422);
      expect(r.body.error.message).toMatch(message);
    }
    expect(server.exportState().items).toHaveLength(1);
  });

  it('POST /_oz/state/save without a state file answers 409 no_state_file', async () => {
    const r = await oz('POST', '/state/save');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('no_state_file');
  });

  it('POST, GET, DELETE /_oz/faults and DELETE /_oz/faults/{id}; bad faults answer 422', async () => {
    const created = await oz('POST', '/faults', {
      operationId: 'createCompanyItem',
      type: 'error',
      status: 424,
      code: 'connection_required',
      connect: { provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' },
      hint: 'link it',
      missing: ['x'],
      contract: 'c1',
      times: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^flt_/), remaining: 2 });
    await oz('POST', '/faults', { pathPattern: '^/v1/tools$', type: 'delay', ms: 5 });
    expect((await oz('GET', '/faults')).body.data).toHaveLength(2);
    const faulted = await api('POST', '/v1/companies/acme/items', { building: 'lab', title: 't' });
    expect(faulted.status).toBe(424);
    expect(((await faulted.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      code: 'connection_required',
      connect: { provider: 'crm' },
      hint: 'link it',
      missing: ['x'],
      contract: 'c1',
    });
    expect((await oz('GET', '/faults')).body.data[0].remaining).toBe(1);
    expect((await oz('DELETE', `/faults/${created.body.id}`)).status).toBe(200);
    expect((await oz('DELETE', `/faults/${created.body.id}`)).body.error.code).toBe('fault_not_found');
    expect((await oz('DELETE', '/faults')).body).toEqual({ ok: true });
    expect((await oz('GET', '/faults')).body.data).toEqual([]);
    for (const [fault, message] of [
      [{ type: 'error', status: 500, code: 'x', operationId: 'nope' }, /operationId names no operation/],
      [{ type: 'explode' }, /type must be one of/],
      [{ type: 'error', status: 200, code: 'x' }, /status from 400 to 599/],
      [{ type: 'drop', times: 0 }, /times must be an integer >= 1/],
      [{ type: 'drop', pathPattern: '(' }, /not a regular expression/],
      [{ type: 'drop', colour: 'red' }, /colour is not a field/],
    ] as const) {
      const r = await oz('POST', '/faults', fault);
      expect(r.status).toBe(422);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await oz('GET', '/faults')).body.data).toEqual([]);
  });

  it('matches a fault on the body and on the account', async () => {
    await oz('POST', '/faults', { type: 'error', status: 503, code: 'upstream_error', body: { text: 'boom' } });
    await oz('POST', '/faults', { type: 'error', status: 502, code: 'upstream_error', account: 'other' });
    expect((await api('POST', '/v1/tools/echo/execute', { text: 'calm' })).status).toBe(200);
    expect((await api('POST', '/v1/tools/echo/execute', { text: 'boom' })).status).toBe(503);
    expect((await api('GET', '/v1/tools')).status).toBe(200);
    expect((await api('GET', '/v1/tools', undefined, server.keys.otherApiKey)).status).toBe(502);
  });

  it('GET and POST /_oz/clock, POST /_oz/clock/advance', async () => {
    const c = await oz('GET', '/clock');
    expect(c.body.frozen).toBe(true);
    const moved = await oz('POST', '/clock/advance', { ms: 60_000 });
    expect(moved.body.now_ms).toBe(c.body.now_ms + 60_000);
    const set = await oz('POST', '/clock', { now: new Date(c.body.now_ms + 3_600_000).toISOString() });
    expect(set.body.now_ms).toBe(c.body.now_ms + 3_600_000);
    expect((await oz('POST', '/clock', { now: '2000-01-01T00:00:00Z' })).body.error.message).toMatch(/never goes back/);
    expect((await oz('POST', '/clock', { frozen: 'no' })).status).toBe(422);
    expect((await oz('POST', '/clock', { now: 'tomorrow' })).status).toBe(422);
    expect((await oz('POST', '/clock/advance', { ms: -1 })).status).toBe(422);
    expect((await oz('POST', '/clock/advance', {})).status).toBe(422);
    expect((await oz('GET', '/clock')).body.now_ms).toBe(c.body.now_ms + 3_600_000);

    // Let it run from where it stands, then stop it again: no jump either way.
    const running = await oz('POST', '/clock', { frozen: false });
    expect(running.body).toMatchObject({ frozen: false });
    expect(running.body.now_ms).toBeGreaterThanOrEqual(c.body.now_ms + 3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const later = (await oz('GET', '/clock')).body.now_ms as number;
    expect(later).toBeGreaterThan(running.body.now_ms);
    const stopped = await oz('POST', '/clock', { frozen: true });
    expect(stopped.body.frozen).toBe(true);
    expect(stopped.body.now_ms).toBeGreaterThanOrEqual(later);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await oz('GET', '/clock')).body.now_ms).toBe(stopped.body.now_ms);
  });

  it('POST /_oz/idle: answers once work settled (a frozen clock is moved), or 504 timeout', async () => {
    const pointer = (await (await api('POST', '/v1/tools/slow/execute', { ms: 5000, async: true })).json()) as { execution_id: string };
    expect((await oz('POST', '/idle', {})).body).toEqual({ ok: true });
    expect(server.getExecution(pointer.execution_id)?.status).toBe('succeeded');
    const running = createOzServer({ adminToken: TOKEN });
    void running.fetch(`${running.url}/v1/tools/slow/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' },
      body: '{"ms": 60000}',
    });
    const timeout = await running.fetch(`${running.url}/_oz/idle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{"timeout_ms": 30}',
    });
    expect(timeout.status).toBe(504);
    expect(((await timeout.json()) as { error: { code: string } }).error.code).toBe('timeout');
    await running.close();
    expect((await oz('POST', '/idle', { timeout_ms: 'soon' })).status).toBe(422);
  });

  it('GET /_oz/journal with filters and limit; DELETE /_oz/journal', async () => {
    await api('GET', '/v1/tools');
    await api('POST', '/v1/tools/echo/execute', { text: 'one' });
    await api('POST', '/v1/tools/echo/execute', {});
    const all = (await oz('GET', '/journal')).body.data;
    expect(all.map((e: { operationId: string }) => e.operationId)).toEqual(['listTools', 'executeTool', 'executeTool']);
    expect(all[1]).toMatchObject({
      method: 'POST',
      path: '/v1/tools/echo/execute',
      body: '{"text":"one"}',
      status: 200,
      executionId: expect.stringMatching(/^exe_/),
      fault: null,
      time: expect.stringMatching(/^2026-11-22T/),
    });
    expect((await oz('GET', '/journal?operationId=executeTool&status=422')).body.data).toHaveLength(1);
    expect((await oz('GET', '/journal?method=get&path=/v1/tools')).body.data).toHaveLength(1);
    expect((await oz('GET', '/journal?limit=1')).body.data[0].status).toBe(422);
    expect((await oz('GET', '/journal?operationId=executeTools')).status).toBe(422);
    expect((await oz('GET', '/journal?limit=0')).status).toBe(422);
    expect((await oz('GET', '/journal?status=abc')).status).toBe(422);
    expect((await oz('GET', '/journal?colour=red')).status).toBe(422);
    expect((await oz('DELETE', '/journal')).body).toEqual({ ok: true });
    expect((await oz('GET', '/journal')).body.data).toEqual([]);
  });

  it('POST /_oz/keys and POST /_oz/keys/{id}/revoke', async () => {
    const k = await oz('POST', '/keys', { account: 'demo', name: 'ci', expires_in_days: 7 });
    expect(k.status).toBe(201);
    expect(k.body).toMatchObject({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^ozk_[A-Za-z0-9]{32}$/), account: 'demo', name: 'ci' });
    expect((await api('GET', '/v1/tools', undefined, k.body.key)).status).toBe(200);
    expect((await oz('POST', `/keys/${k.body.id}/revoke`)).body).toEqual({ ok: true });
    await oz('POST', '/clock/advance', { ms: 120_001 });
    expect((await api('GET', '/v1/tools', undefined, k.body.key)).status).toBe(401);
    expect((await oz('POST', '/keys/key_nope/revoke')).body.error.code).toBe('key_not_found');
    expect((await oz('POST', '/keys', { account: 'ghost' })).status).toBe(422);
    expect((await oz('POST', '/keys', {})).body.error.missing).toEqual(['account']);
    expect((await oz('POST', '/keys', { account: 'demo', value: 'ozk_short' })).status).toBe(422);
    expect((await oz('POST', '/keys', { account: 'demo', value: server.apiKey })).body.error.message).toMatch(/in use already/);
  });

  it('POST /_oz/items/{id}/park, /pause, /resume and PATCH /_oz/items/{id}', async () => {
    const item = (await (await api('POST', '/v1/companies/acme/items', { building: 'lab', title: 'node work' })).json()) as { id: string };
    expect((await oz('POST', `/items/${item.id}/pause`)).body).toMatchObject({ id: item.id, paused: 1 });
    expect((await oz('POST', `/items/${item.id}/resume`)).body).toMatchObject({ paused: 0 });
    expect((await oz('PATCH', `/items/${item.id}`, { step: 'done', status: 'done', last_output: 'shipped' })).body).toMatchObject({
      step: 'done',
      status: 'done',
      last_output: 'shipped',
    });
    expect((await oz('PATCH', `/items/${item.id}`, { status: 'exploded' })).status).toBe(422);
    expect((await oz('PATCH', `/items/${item.id}`, { title: 'no' })).status).toBe(422);
    expect(server.items.get(item.id)?.status).toBe('done');
    expect((await oz('POST', `/items/${item.id}/park`, { reason: 'waiting for legal' })).body).toMatchObject({
      step: 'parked',
      status: 'parked',
      parked_reason: 'waiting for legal',
    });
    expect((await oz('POST', `/items/${item.id}/park`, {})).body.error.missing).toEqual(['reason']);
    for (const path of ['/items/itm_nope/park', '/items/itm_nope/pause', '/items/itm_nope/resume']) {
      expect((await oz('POST', path, { reason: 'r' })).body.error.code).toBe('item_not_found');
    }
    expect((await oz('PATCH', '/items/itm_nope', {})).status).toBe(404);
  });

  it('POST /_oz/dashboard/sign-in-as', async () => {
    expect((await oz('POST', '/dashboard/sign-in-as', { account: 'other', key_expiry_days: 30, key_name: 'from ci' })).body).toEqual({ ok: true });
    const authorize = await fetch(`${listener.dashboardUrl}/api/cli/authorize?port=9999&state=s`, { redirect: 'manual' });
    const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
    const token = (await (
      await fetch(`${listener.dashboardUrl}/api/cli/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    ).json()) as { tier: string; name: string };
    expect(token).toMatchObject({ tier: 'free', name: 'from ci' });
    expect((await oz('POST', '/dashboard/sign-in-as', { account: null })).status).toBe(200);
    expect((await oz('POST', '/dashboard/sign-in-as', { account: 'ghost' })).status).toBe(422);
    expect((await oz('POST', '/dashboard/sign-in-as', {})).status).toBe(422);
    expect((await oz('POST', '/dashboard/sign-in-as', { account: 'demo', key_expiry_days: 3 })).status).toBe(422);
  });

  it('GET and PATCH /_oz/settings: the rate limit (0 is off) and the timing', async () => {
    expect((await oz('GET', '/settings')).body).toEqual({ rate_limit: 100000, step_ms: 10, token_ms: 2, poll_ms: 0, key_cache_ms: 120000 });
    expect((await oz('PATCH', '/settings', { rate_limit: 2 })).body.rate_limit).toBe(2);
    expect((await api('GET', '/v1/tools')).headers.get('x-ratelimit-limit')).toBe('2');
    await api('GET', '/v1/tools');
    const limited = await api('GET', '/v1/tools');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    await oz('PATCH', '/settings', { rate_limit: 0 });
    const free = await api('GET', '/v1/tools');
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await oz('PATCH', '/settings', { poll_ms: 3000, step_ms: 5 })).body).toMatchObject({ poll_ms: 3000, step_ms: 5 });
    const pointer = (await (await api('POST', '/v1/tools/slow/execute', { ms: 1000, async: true })).json()) as { execution_id: string };
    expect((await api('GET', `/v1/executions/${pointer.execution_id}`)).headers.get('retry-after')).toBe('3');
    const bad = await oz('PATCH', '/settings', { step_ms: 1, rate_limit: -1 });
    expect(bad.status).toBe(422);
    expect((await oz('PATCH', '/settings', { speed: 1 })).status).toBe(422);
    expect((await oz('GET', '/settings')).body).toMatchObject({ step_ms: 5, rate_limit: 0 });
    await oz('PATCH', '/settings', { rate_limit: 100000, step_ms: 10, poll_ms: 0 });
  });
});
