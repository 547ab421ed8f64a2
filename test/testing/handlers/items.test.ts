import { afterEach, describe, expect, it } from 'vitest';
import type { Item, ItemList } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import openapi from '../../../openapi.json' with { type: 'json' };
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

function create(body: unknown, options: { key?: string | null; campus?: string } = {}) {
  return callJson<Item & ErrorBody>(server, 'POST', `/v1/companies/${options.campus ?? 'acme'}/items`, { body, key: options.key });
}

async function itemCount(): Promise<number> {
  const list = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items?limit=100');
  return list.body.data.length;
}

describe('POST /v1/companies/{campus}/items', () => {
  it('answers 201 with the item at intake and the contract defaults', async () => {
    server = createTestServer({ clock: { start: '2026-11-21T12:00:00.000Z', frozen: true } });
    const { status, body, headers } = await create({ building: 'hq', title: 'Ship it' });
    expect(status).toBe(201);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body).toEqual({
      id: expect.stringMatching(/^itm_[A-Za-z0-9]{24}$/),
      campus: 'acme',
      building: 'hq',
      title: 'Ship it',
      body: '',
      kind: 'task',
      source: 'api',
      priority: 0,
      tier: null,
      step: 'intake',
      attempt: 0,
      status: 'active',
      parked_reason: null,
      paused: 0,
      steer: null,
      last_output: null,
      cost_usd: 0,
      parent_item_id: null,
      created_at: '2026-11-21T12:00:00.000Z',
      updated_at: '2026-11-21T12:00:00.000Z',
    });
  });

  it('keeps the given kind, priority, body and tier', async () => {
    server = createTestServer();
    const { body } = await create({ building: 'lab', title: 'T', body: 'B', kind: 'docs', priority: 3, tier: 'gold' });
    expect(body).toMatchObject({ building: 'lab', body: 'B', kind: 'docs', priority: 3, tier: 'gold' });
  });

  it.each([
    ['title of 0 characters', { building: 'hq', title: '' }, /title/],
    ['title of 301 characters', { building: 'hq', title: 'x'.repeat(301) }, /title/],
    ['body over 65536 characters', { building: 'hq', title: 'T', body: 'x'.repeat(65537) }, /body/],
    ['tier over 32 characters', { building: 'hq', title: 'T', tier: 'x'.repeat(33) }, /tier/],
    ['kind outside the enum', { building: 'hq', title: 'T', kind: 'epic' }, /kind/],
    ['priority not an integer', { building: 'hq', title: 'T', priority: 1.5 }, /priority/],
    ['title not a string', { building: 'hq', title: 7 }, /title/],
  ])('answers 422 invalid_params for a %s and writes nothing', async (_name, body, message) => {
    server = createTestServer();
    const { status, body: err, headers } = await create(body);
    expect(status).toBe(422);
    expect(headers.get('x-error-code')).toBe('invalid_params');
    expect(err.error.code).toBe('invalid_params');
    expect(err.error.message).toMatch(message);
    expect(await itemCount()).toBe(0);
  });

  it('accepts the limits exactly: title 1 and 300, body 65536, tier 32', async () => {
    server = createTestServer();
    expect((await create({ building: 'hq', title: 'x' })).status).toBe(201);
    expect((await create({ building: 'hq', title: 'x'.repeat(300), body: 'y'.repeat(65536), tier: 'z'.repeat(32) })).status).toBe(201);
  });

  it('counts lengths in characters (code points), not UTF-16 units: 300 emoji are a valid title, 301 are not', async () => {
    server = createTestServer();
    const emoji = (n: number) => '😀'.repeat(n);
    expect((await create({ building: 'hq', title: emoji(151) })).status).toBe(201);
    const limits = await create({ building: 'hq', title: emoji(300), body: emoji(65536), tier: emoji(32) });
    expect(limits.status).toBe(201);
    expect([...limits.body.title]).toHaveLength(300);
    for (const [field, body] of [
      ['title', { building: 'hq', title: emoji(301) }],
      ['body', { building: 'hq', title: 'T', body: emoji(65537) }],
      ['tier', { building: 'hq', title: 'T', tier: emoji(33) }],
    ] as const) {
      const res = await create(body);
      expect([res.status, res.body.error.message], field).toEqual([
        422,
        expect.stringMatching(new RegExp(`^${field} must be a string of (1 to 300|at most 65536|at most 32) characters( or null)?\\.$`)),
      ]);
    }
    expect(await itemCount()).toBe(2);
  });

  it('takes tier: null as no tier, as openapi.json says (a string or null)', async () => {
    server = createTestServer();
    const res = await create({ building: 'hq', title: 'T', tier: null });
    expect([res.status, res.body.tier]).toEqual([201, null]);
    const schema = (openapi.components.schemas.ItemCreateRequest.properties.tier as { type: string[] }).type;
    expect(schema).toEqual(['string', 'null']);
    const wrong = await create({ building: 'hq', title: 'T', tier: 5 });
    expect([wrong.status, wrong.body.error.message]).toEqual([422, 'tier must be a string of at most 32 characters or null.']);
  });

  it('lists the missing required fields', async () => {
    server = createTestServer();
    const { status, body } = await create({});
    expect(status).toBe(422);
    expect(body.error.missing).toEqual(['building', 'title']);
    const one = await create({ title: 'T' });
    expect(one.body.error.missing).toEqual(['building']);
    expect(await itemCount()).toBe(0);
  });

  it('answers 404 company_not_found for an unknown building, an unknown slug and another account’s slug', async () => {
    server = createTestServer();
    for (const [campus, body] of [
      ['acme', { building: 'nowhere', title: 'T' }],
      ['initech', { building: 'hq', title: 'T' }],
      ['globex', { building: 'hq', title: 'T' }],
    ] as const) {
      const res = await create(body, { campus });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('company_not_found');
      expect(res.headers.get('x-error-code')).toBe('company_not_found');
    }
    expect(await itemCount()).toBe(0);
  });

  it('answers 503 not_enabled on every company route for a free-tier account', async () => {
    server = createTestServer();
    const other = server.keys.otherApiKey;
    expect((await create({ building: 'hq', title: 'T' }, { key: other, campus: 'globex' })).body.error.code).toBe('not_enabled');
    const list = await callJson<ErrorBody>(server, 'GET', '/v1/companies/globex/items', { key: other });
    expect(list.status).toBe(503);
    const one = await callJson<ErrorBody>(server, 'GET', '/v1/companies/globex/items/itm_x', { key: other });
    expect([one.status, one.headers.get('x-error-code')]).toEqual([503, 'not_enabled']);
  });

  it('answers 400 invalid_json for a body that is neither JSON nor YAML, on JSON and YAML content types', async () => {
    server = createTestServer();
    const bad = await call(server, 'POST', '/v1/companies/acme/items', { body: '{"building": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.code).toBe('invalid_json');
    const badYaml = await call(server, 'POST', '/v1/companies/acme/items', { body: 'building: [hq', headers: { 'content-type': 'text/yaml' } });
    expect(badYaml.status).toBe(400);
    expect(badYaml.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(await badYaml.text()).toMatch(/code: invalid_json/);
    const scalar = await call(server, 'POST', '/v1/companies/acme/items', { body: '"just a string"' });
    expect(scalar.status).toBe(400);
    expect(await itemCount()).toBe(0);
  });

  it('says what is wrong in every 400 invalid_json: the syntax it was read as, or that the body must be an object', async () => {
    server = createTestServer();
    const message = async (body: string, contentType: string) => {
      const res = await call(server, 'POST', '/v1/companies/acme/items', { body, headers: { 'content-type': contentType, accept: 'application/json' } });
      expect([res.status, res.headers.get('x-error-code')]).toEqual([400, 'invalid_json']);
      return ((await res.json()) as ErrorBody).error.message;
    };
    expect(await message('[1,2]', 'application/json')).toBe('The request body must be an object ({...}), not an array.');
    expect(await message('"x"', 'application/json')).toBe('The request body must be an object ({...}), not a string.');
    expect(await message('42', 'application/json')).toBe('The request body must be an object ({...}), not a number.');
    expect(await message('- building\n- title\n', 'text/yaml')).toBe('The request body must be an object ({...}), not an array.');
    expect(await message('{"building": ', 'application/json')).toMatch(/^The request body is not valid JSON: /);
    expect(await message('building: [hq', 'application/yaml')).toMatch(/^The request body is not valid YAML: /);
    expect(await message('building: [hq', 'text/plain')).toMatch(/^The request body is not valid JSON or YAML: /);
    expect(await itemCount()).toBe(0);
  });

  it('takes a YAML body and answers YAML (request Content-Type rule)', async () => {
    server = createTestServer();
    const res = await call(server, 'POST', '/v1/companies/acme/items', {
      body: 'building: hq\ntitle: From YAML\nbody: |\n  line one\n  line two\n',
      headers: { 'content-type': 'application/yaml' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^text\/yaml/);
    const text = await res.text();
    expect(text).toMatch(/^id: itm_/);
    expect(text).toContain('body: |\n  line one\n  line two\n');
  });

  it('answers 401 for X-API-Key (bearer only) and for a legacy key', async () => {
    server = createTestServer();
    const viaHeader = await call(server, 'POST', '/v1/companies/acme/items', {
      body: { building: 'hq', title: 'T' },
      key: null,
      headers: { 'x-api-key': server.apiKey },
    });
    expect(viaHeader.status).toBe(401);
    const legacy = await create({ building: 'hq', title: 'T' }, { key: server.keys.modelsKey });
    expect(legacy.status).toBe(401);
    expect(await itemCount()).toBe(0);
  });
});

describe('GET /v1/companies/{campus}/items and /items/{id}', () => {
  it('lists newest first, filters by building and status, and pages with next_cursor', async () => {
    server = createTestServer({ timing: { stepMs: 1 } });
    const ids: string[] = [];
    for (const [i, building] of ['hq', 'lab', 'lab', 'lab'].entries()) ids.push((await create({ building, title: `T${i}` })).body.id);
    await server.idle();
    const all = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items');
    expect(all.body.data.map((i) => i.id)).toEqual([...ids].reverse());
    expect(all.body.next_cursor).toBeNull();
    const lab = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items?building=lab&limit=2');
    expect(lab.body.data.map((i) => i.id)).toEqual([ids[3], ids[2]]);
    expect(lab.body.next_cursor).toBe(ids[2]);
    const next = await callJson<ItemList>(server, 'GET', `/v1/companies/acme/items?building=lab&limit=2&cursor=${lab.body.next_cursor}`);
    expect(next.body.data.map((i) => i.id)).toEqual([ids[1]]);
    expect(next.body.next_cursor).toBeNull();
    const done = await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items?status=done');
    expect(done.body.data.map((i) => i.id)).toEqual([ids[0]]);
  });

  it.each(['0', '101', 'ten', '1.5'])('answers 422 invalid_params for limit=%s', async (limit) => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'GET', `/v1/companies/acme/items?limit=${limit}`);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_params']);
  });

  it('answers 422 for an unknown cursor and for an unknown status', async () => {
    server = createTestServer();
    expect((await call(server, 'GET', '/v1/companies/acme/items?cursor=itm_nope')).status).toBe(422);
    expect((await call(server, 'GET', '/v1/companies/acme/items?status=sleeping')).status).toBe(422);
  });

  it('gets one item, and answers 404 item_not_found for an unknown id or an item of another company', async () => {
    server = createTestServer();
    const { body } = await create({ building: 'lab', title: 'Mine' });
    expect((await callJson<Item>(server, 'GET', `/v1/companies/acme/items/${body.id}`)).body.title).toBe('Mine');
    const missing = await callJson<ErrorBody>(server, 'GET', '/v1/companies/acme/items/itm_missing');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'item_not_found']);
    server.addCompany({ account: 'demo', slug: 'umbrella', buildings: [{ slug: 'lab', kind: 'local' }] });
    expect((await call(server, 'GET', `/v1/companies/umbrella/items/${body.id}`)).status).toBe(404);
  });
});

describe('the item walk of a cloud building', () => {
  it('walks intake, plan, build, review, done, feeding each step the previous output', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const { body } = await create({ building: 'hq', title: 'Fix login' });
    const seen = [server.items.get(body.id)!.step];
    for (let i = 0; i < 4; i++) {
      await server.clock.advance(10);
      seen.push(server.items.get(body.id)!.step);
    }
    expect(seen).toEqual(['intake', 'plan', 'build', 'review', 'done']);
    const done = (await callJson<Item>(server, 'GET', `/v1/companies/acme/items/${body.id}`)).body;
    expect(done).toMatchObject({ status: 'done', step: 'done', attempt: 0, last_output: 'review: build: plan: Fix login' });
    expect(done.cost_usd).toBeCloseTo(0.003, 9);
    expect(server.wallet('demo').spent_usd).toBeCloseTo(0.003, 9);
  });

  it('raises attempt on a failing step and fails the item after 3 attempts', async () => {
    server = createTestServer({ clock: { frozen: true } });
    server.items.failStep({ campus: 'acme', building: 'hq', step: 'build', times: 2 });
    const a = (await create({ building: 'hq', title: 'Retried' })).body;
    await server.idle();
    expect(server.items.get(a.id)).toMatchObject({ status: 'done', step: 'done' });

    server.items.failStep({ campus: 'acme', building: 'hq', step: 'build', times: 3 });
    const b = (await create({ building: 'hq', title: 'Doomed' })).body;
    const attempts: number[] = [];
    for (let i = 0; i < 6; i++) {
      await server.clock.advance(10);
      attempts.push(server.items.get(b.id)!.attempt);
    }
    expect(attempts).toEqual([0, 0, 1, 2, 3, 3]);
    expect(server.items.get(b.id)).toMatchObject({ status: 'failed', step: 'build', attempt: 3, last_output: 'plan: Doomed' });
  });

  it('holds a paused item where it is, and parks an item for good', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const a = (await create({ building: 'hq', title: 'Paused' })).body;
    const b = (await create({ building: 'hq', title: 'Parked' })).body;
    await server.clock.advance(10);
    server.items.pause(a.id);
    server.items.park(b.id, 'waiting for a decision');
    await server.clock.advance(100);
    expect(server.items.get(a.id)).toMatchObject({ step: 'plan', paused: 1, status: 'active' });
    expect(server.items.get(b.id)).toMatchObject({ step: 'parked', status: 'parked', parked_reason: 'waiting for a decision' });
    server.items.resume(a.id);
    await server.idle();
    expect(server.items.get(a.id)).toMatchObject({ step: 'done', status: 'done', paused: 0 });
    expect(server.items.get(b.id)!.status).toBe('parked');
  });

  it('leaves a local building’s item at intake for its node', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const { body } = await create({ building: 'lab', title: 'Node work' });
    await server.clock.advance(1000);
    expect(server.items.get(body.id)).toMatchObject({ step: 'intake', status: 'active' });
    server.items.update(body.id, { step: 'done', status: 'done', last_output: 'built by the node' });
    expect((await callJson<Item>(server, 'GET', `/v1/companies/acme/items/${body.id}`)).body.last_output).toBe('built by the node');
  });

  it('runs a custom office handler and moves in small real-time steps a test can watch', async () => {
    server = createTestServer({ timing: { stepMs: 5 } });
    server.addCompany({
      account: 'demo',
      slug: 'studio',
      buildings: [{ slug: 'desk', kind: 'cloud', pipeline: [{ id: 'shout', handler: (input) => input.toUpperCase() }] }],
    });
    const { body } = await create({ building: 'desk', title: 'quiet' }, { campus: 'studio' });
    expect(body.step).toBe('intake');
    await server.idle();
    expect(server.items.get(body.id)).toMatchObject({ step: 'done', last_output: 'QUIET' });
  });
});
