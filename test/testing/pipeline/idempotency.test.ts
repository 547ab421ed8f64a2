import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { IdempotencyConflictError, InvalidParamsError, Oz, type Item, type Schedule } from '../../../src/index.js';
import { IdempotencyStore, REPLAY_WINDOW_MS } from '../../../src/testing/state/idempotencyStore.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const itemBody = (title: string) => ({ building: 'lab', title });
const createItem = (s: OzServer, traceId: string | undefined, body: unknown, extra: Record<string, string> = {}, path = '/v1/companies/acme/items') =>
  call(s, 'POST', path, { body, headers: { ...(traceId === undefined ? {} : { 'x-trace-id': traceId }), ...extra } });
const itemTitles = async (s: OzServer) => (await callJson<{ data: Item[] }>(s, 'GET', '/v1/companies/acme/items?limit=100')).body.data.map((i) => i.title);

describe('x-trace-id on writes that are not runs (the embedded server)', () => {
  it('replays the kept answer: same status and resource, on the wire negotiated for the replay, with x-idempotent-replayed', async () => {
    server = createTestServer();
    const first = await createItem(server, 'trace-a', itemBody('once'));
    expect(first.status).toBe(201);
    expect(first.headers.get('x-idempotent-replayed')).toBeNull();
    const created = (await first.json()) as Item;

    const again = await createItem(server, 'trace-a', itemBody('once'));
    expect([again.status, again.headers.get('x-idempotent-replayed')]).toEqual([201, 'true']);
    expect(await again.json()).toEqual(created);

    // The replay's own wire: the same item in YAML.
    const asYaml = await createItem(server, 'trace-a', itemBody('once'), { accept: 'text/yaml' });
    expect([asYaml.status, asYaml.headers.get('content-type'), asYaml.headers.get('x-idempotent-replayed')]).toEqual([201, 'text/yaml; charset=utf-8', 'true']);
    expect(yaml.load(await asYaml.text(), { schema: yaml.JSON_SCHEMA })).toEqual(created);
    expect(await itemTitles(server)).toEqual(['once']);
    expect(server.journal.filter('createCompanyItem').map((e) => e.replayed)).toEqual([false, true, true]);
    // A browser may read the header (CORS).
    const fromPage = await createItem(server, 'trace-a', itemBody('once'), { origin: 'https://app.example' });
    expect(fromPage.headers.get('access-control-expose-headers')).toContain('x-idempotent-replayed');
  });

  it('tells proxy writes apart by their query, not by the wire they ask for', async () => {
    server = createTestServer();
    server.linkConnection('demo', 'crm', { method: 'api_key', status: 'linked' });
    const post = (query: string) => call(server!, 'POST', `/v1/proxy/crm/contacts${query}`, { body: { name: 'Ada' }, headers: { 'x-trace-id': 'proxy-1' } });
    expect((await post('?list=a')).status).toBe(200);
    expect((await post('?list=a&format=yaml')).headers.get('x-idempotent-replayed')).toBe('true');
    const other = await post('?list=b');
    expect([other.status, other.headers.get('x-error-code')]).toEqual([409, 'idempotency_conflict']);
  });

  it('answers 409 idempotency_conflict for another body, path or method, and writes nothing', async () => {
    server = createTestServer();
    expect((await createItem(server, 'trace-b', itemBody('first'))).status).toBe(201);
    const otherBody = await callJson<ErrorBody>(server, 'POST', '/v1/companies/acme/items', { body: itemBody('second'), headers: { 'x-trace-id': 'trace-b' } });
    expect([otherBody.status, otherBody.headers.get('x-error-code'), otherBody.body.error.code]).toEqual([409, 'idempotency_conflict', 'idempotency_conflict']);
    expect(otherBody.body.error.message).toContain('trace-b');
    const otherPath = await call(server, 'POST', '/v1/schedules', {
      body: { name: 'n', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } },
      headers: { 'x-trace-id': 'trace-b' },
    });
    expect([otherPath.status, otherPath.headers.get('x-error-code')]).toEqual([409, 'idempotency_conflict']);
    const otherMethod = await call(server, 'DELETE', '/v1/workflows/draft-and-review', { headers: { 'x-trace-id': 'trace-b' } });
    expect(otherMethod.status).toBe(409);
    expect(await itemTitles(server)).toEqual(['first']);
    expect((await callJson<{ data: Schedule[] }>(server, 'GET', '/v1/schedules')).body.data).toEqual([]);
    expect((await call(server, 'GET', '/v1/workflows/draft-and-review')).status).toBe(200);
  });

  it('keeps no error: a retry after an error runs again', async () => {
    server = createTestServer();
    const bad = await createItem(server, 'trace-c', { building: 'lab' });
    expect([bad.status, bad.headers.get('x-error-code')]).toEqual([422, 'invalid_params']);
    // The same bad request runs again (422 again, not a replay), then a good one with the same trace id is written.
    expect((await createItem(server, 'trace-c', { building: 'lab' })).headers.get('x-idempotent-replayed')).toBeNull();
    expect((await createItem(server, 'trace-c', itemBody('fixed'))).status).toBe(201);
    expect(await itemTitles(server)).toEqual(['fixed']);
  });

  it.each([
    ['empty', ''],
    ['too long (256)', 'x'.repeat(256)],
    ['with a space', 'trace d'],
    ['with a tab', 'trace\td'],
    ['not ASCII', 'trace-é'],
  ])('answers 422 invalid_params for a trace id %s, and writes nothing', async (_name, traceId) => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'POST', '/v1/companies/acme/items', { body: itemBody('never'), headers: { 'x-trace-id': traceId } });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_params']);
    expect(res.body.error.message).toContain('x-trace-id');
    const deleted = await call(server, 'DELETE', '/v1/workflows/draft-and-review', { headers: { 'x-trace-id': traceId } });
    expect(deleted.status).toBe(422);
    const run = await call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers: { 'x-trace-id': traceId } });
    expect(run.status).toBe(422);
    expect(await itemTitles(server)).toEqual([]);
    expect((await call(server, 'GET', '/v1/workflows/draft-and-review')).status).toBe(200);
    expect((await callJson<{ data: unknown[] }>(server, 'GET', '/v1/executions')).body.data).toEqual([]);
  });

  it('accepts a trace id of 255 printable characters', async () => {
    server = createTestServer();
    const longest = '~'.repeat(255);
    expect((await createItem(server, longest, itemBody('edge'))).status).toBe(201);
    expect((await createItem(server, longest, itemBody('edge'))).headers.get('x-idempotent-replayed')).toBe('true');
  });

  it('keeps an answer for 24 hours of the server clock, then the trace id runs again', async () => {
    server = createTestServer({ clock: { frozen: true } });
    expect((await createItem(server, 'trace-e', itemBody('day one'))).status).toBe(201);
    await server.clock.advance(REPLAY_WINDOW_MS - 1);
    expect((await createItem(server, 'trace-e', itemBody('day one'))).headers.get('x-idempotent-replayed')).toBe('true');
    await server.clock.advance(1);
    const later = await createItem(server, 'trace-e', itemBody('day one'));
    expect([later.status, later.headers.get('x-idempotent-replayed')]).toEqual([201, null]);
    expect(await itemTitles(server)).toEqual(['day one', 'day one']);
  });

  it('keeps at most idempotencyMaxEntries answers, dropping the oldest first', async () => {
    server = createTestServer({ idempotencyMaxEntries: 2 });
    for (const t of ['t1', 't2', 't3']) expect((await createItem(server, t, itemBody(t))).status).toBe(201);
    expect((await createItem(server, 't3', itemBody('t3'))).headers.get('x-idempotent-replayed')).toBe('true');
    expect((await createItem(server, 't2', itemBody('t2'))).headers.get('x-idempotent-replayed')).toBe('true');
    // t1 was the oldest: dropped, so it runs again.
    expect((await createItem(server, 't1', itemBody('t1'))).headers.get('x-idempotent-replayed')).toBeNull();
    expect((await itemTitles(server)).sort()).toEqual(['t1', 't1', 't2', 't3']);
    expect(() => createTestServer({ idempotencyMaxEntries: 0 })).toThrow(RangeError);
  });

  it('keys answers by account: another account may use the same trace id', async () => {
    server = createTestServer();
    const body = { name: 'n', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } };
    const mine = await callJson<Schedule>(server, 'POST', '/v1/schedules', { body, headers: { 'x-trace-id': 'shared' } });
    const theirs = await callJson<Schedule>(server, 'POST', '/v1/schedules', { body, headers: { 'x-trace-id': 'shared' }, key: server.keys.otherApiKey });
    expect([mine.status, theirs.status, theirs.headers.get('x-idempotent-replayed')]).toEqual([201, 201, null]);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('leaves run routes as they were: a replay of a run answers 409 duplicate_execution_id', async () => {
    server = createTestServer();
    const headers = { 'x-trace-id': 'exe_run1' };
    expect((await call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers })).status).toBe(200);
    const replay = await call(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers });
    expect([replay.status, replay.headers.get('x-error-code'), replay.headers.get('x-idempotent-replayed')]).toEqual([409, 'duplicate_execution_id', null]);
  });

  it('forgets kept answers on reset', async () => {
    server = createTestServer();
    expect((await createItem(server, 'trace-r', itemBody('before'))).status).toBe(201);
    server.reset();
    expect((await createItem(server, 'trace-r', itemBody('before'))).headers.get('x-idempotent-replayed')).toBeNull();
  });
});

describe('IdempotencyStore', () => {
  it('answers 409 idempotency_conflict while the first request is being served, and lets a released one run again', () => {
    const store = new IdempotencyStore(10);
    const first = store.claim('demo', 't', 'POST', '/v1/schedules', '{}', 0);
    expect(first.kind).toBe('first');
    expect(() => store.claim('demo', 't', 'POST', '/v1/schedules', '{}', 1)).toThrow(expect.objectContaining({ status: 409, code: 'idempotency_conflict' }));
    store.release((first as { key: string }).key);
    expect(store.claim('demo', 't', 'POST', '/v1/schedules', '{}', 2).kind).toBe('first');
  });

  it('drops expired answers as new ones come (memory stays bounded)', () => {
    const store = new IdempotencyStore(1_000);
    for (let i = 0; i < 100; i++) {
      const claim = store.claim('demo', `t${i}`, 'POST', '/p', '', i);
      store.keep((claim as { key: string }).key, { kind: 'json', status: 200, value: i }, i);
    }
    expect(store.size).toBe(100);
    store.claim('demo', 'late', 'POST', '/p', '', 50 + REPLAY_WINDOW_MS);
    // t0..t50 expired at 50 + 24 h; t51..t99 and the new claim remain.
    expect(store.size).toBe(50);
  });
});

describe('x-trace-id from the SDK on every write', () => {
  const client = (s: OzServer) => new Oz({ apiKey: s.apiKey, baseURL: s.url, fetch: s.fetch, logLevel: 'off' });

  it('sends a new trace id per call, the same on every attempt, and idempotencyKey replaces it', async () => {
    server = createTestServer();
    const oz = client(server);
    server.faults.add({ operationId: 'createSchedule', type: 'error', status: 500, code: 'internal_error', retryAfter: 0 });
    await oz.schedules.create({ name: 'a', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } });
    await oz.schedules.create({ name: 'b', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' } });
    const [attempt1, attempt2, other] = server.journal.filter('createSchedule').map((e) => e.headers['x-trace-id']);
    expect(attempt1).toMatch(/^exe_[A-Za-z0-9]{32}$/);
    expect(attempt2).toBe(attempt1);
    expect(other).not.toBe(attempt1);
    await oz.workflows.delete('draft-and-review', { idempotencyKey: 'my-delete-1' });
    expect(server.journal.last('deleteWorkflow')!.headers['x-trace-id']).toBe('my-delete-1');
    // Reads carry none.
    await oz.workflows.list();
    expect(server.journal.last('listWorkflows')!.headers['x-trace-id']).toBeUndefined();
  });

  it('throws IdempotencyConflictError (409) for a key reused with another body, and never retries it', async () => {
    server = createTestServer();
    const oz = client(server);
    await oz.companies.items.create('acme', itemBody('first'), { idempotencyKey: 'reused' });
    const error = await oz.companies.items.create('acme', itemBody('second'), { idempotencyKey: 'reused' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency_conflict' });
    expect(server.journal.filter('createCompanyItem').map((e) => e.status)).toEqual([201, 409]);
    expect(await itemTitles(server)).toEqual(['first']);
  });

  it('throws InvalidParamsError (422) for a bad idempotencyKey, writes nothing, and never retries it', async () => {
    server = createTestServer();
    const oz = client(server);
    const error = await oz.companies.items.create('acme', itemBody('x'), { idempotencyKey: 'has space' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).missing).toEqual([]);
    expect(server.journal.filter('createCompanyItem')).toHaveLength(1);
    expect(await itemTitles(server)).toEqual([]);
  });
});
