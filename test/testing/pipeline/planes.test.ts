import { afterEach, describe, expect, it } from 'vitest';
import type { AsyncPointer, Connection, DiscoveryList, Schedule, ScheduleList } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('schedules', () => {
  it('creates with next_run_at from the cron and time zone, lists, gets and deletes', async () => {
    server = createTestServer({ clock: { start: '2026-11-21T12:00:30.000Z', frozen: true } });
    const created = await callJson<Schedule>(server, 'POST', '/v1/schedules', {
      body: {
        name: 'weekday digest',
        cron: '0 9 * * mon-fri',
        timezone: 'Europe/Berlin',
        target: { kind: 'agent', name: 'writer' },
        input: { user_request: 'digest' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^sch_/),
      enabled: true,
      next_run_at: '2026-11-23T08:00:00.000Z',
      created_at: '2026-11-21T12:00:30.000Z',
    });
    const off = await callJson<Schedule>(server, 'POST', '/v1/schedules', {
      body: { name: 'off', cron: '* * * * *', target: { kind: 'tool', name: 'echo' }, enabled: false },
    });
    expect(off.body).toMatchObject({ timezone: 'UTC', next_run_at: null, input: {} });
    expect((await callJson<ScheduleList>(server, 'GET', '/v1/schedules')).body.data).toHaveLength(2);
    expect((await callJson<Schedule>(server, 'GET', `/v1/schedules/${off.body.id}`)).body.name).toBe('off');
    expect((await callJson(server, 'DELETE', `/v1/schedules/${off.body.id}`)).body).toEqual({ id: off.body.id, deleted: true });
    expect((await call(server, 'GET', `/v1/schedules/${off.body.id}`)).status).toBe(404);
  });

  it.each([
    ['a bad cron', { name: 's', cron: '61 * * * *', target: { kind: 'tool', name: 'echo' } }],
    ['an unknown time zone', { name: 's', cron: '* * * * *', timezone: 'Mars/Olympus', target: { kind: 'tool', name: 'echo' } }],
    ['an unknown target', { name: 's', cron: '* * * * *', target: { kind: 'agent', name: 'ghost' } }],
    ['a target kind outside the enum', { name: 's', cron: '* * * * *', target: { kind: 'robot', name: 'x' } }],
  ])('answers 422 for %s', async (_n, body) => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'POST', '/v1/schedules', { body });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_params']);
  });

  it('runs now with 202 and the pointer, and fires on its own when the clock reaches next_run_at', async () => {
    server = createTestServer({ clock: { start: '2026-11-21T12:00:30.000Z', frozen: true } });
    const s = await callJson<Schedule>(server, 'POST', '/v1/schedules', {
      body: { name: 'flow', cron: '*/5 * * * *', target: { kind: 'workflow', name: 'draft-and-review' }, input: { input: 'weekly' } },
    });
    const run = await callJson<AsyncPointer>(server, 'POST', `/v1/schedules/${s.body.id}/run`);
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ workflow_id: expect.stringMatching(/^wfl_/), task_id: expect.stringMatching(/^tsk_/), status: 'queued' });
    expect(run.headers.get('x-execution-id')).toBe(run.body.execution_id);
    await server.idle();
    expect(server.getExecution(run.body.execution_id)).toMatchObject({ status: 'succeeded', content: expect.stringContaining('weekly') });
    await server.clock.advance(5 * 60_000);
    await server.idle();
    const runs = await callJson<{ data: Array<{ target: string; status: string }> }>(server, 'GET', '/v1/executions?kind=workflow');
    expect(runs.body.data).toHaveLength(2);
    expect((await callJson<Schedule>(server, 'GET', `/v1/schedules/${s.body.id}`)).body.next_run_at).toBe('2026-11-21T12:10:00.000Z');
    expect((await call(server, 'POST', '/v1/schedules/sch_nope/run')).status).toBe(404);
  });

  it('answers 424 when the scheduled tool needs a connection', async () => {
    server = createTestServer();
    const s = await callJson<Schedule>(server, 'POST', '/v1/schedules', {
      body: { name: 'crm', cron: '0 * * * *', target: { kind: 'tool', name: 'crm_lookup' }, input: { query: 'x' } },
    });
    const res = await callJson<ErrorBody>(server, 'POST', `/v1/schedules/${s.body.id}/run`);
    expect([res.status, res.body.error.code]).toEqual([424, 'connection_required']);
  });
});

describe('discovery', () => {
  it('ranks agents, tools and workflows best match first, by kind, with scores from 0 to 1', async () => {
    server = createTestServer();
    const all = await callJson<DiscoveryList>(server, 'GET', '/v1/discovery');
    expect(all.body.data.map((r) => `${r.kind}:${r.name}`)).toEqual([
      'agent:approver',
      'agent:writer',
      'tool:crm_lookup',
      'tool:echo',
      'tool:slow',
      'tool:sum',
      'workflow:draft-and-review',
    ]);
    const draft = await callJson<DiscoveryList>(server, 'GET', '/v1/discovery?q=draft');
    expect(draft.body.data[0]).toMatchObject({ kind: 'workflow', name: 'draft-and-review', score: 1 });
    expect(draft.body.data.map((r) => r.name)).toContain('writer');
    expect(draft.body.data.every((r) => r.score > 0 && r.score <= 1)).toBe(true);
    const tools = await callJson<DiscoveryList>(server, 'GET', '/v1/discovery?kind=tool&limit=2');
    expect(tools.body.data.map((r) => r.name)).toEqual(['crm_lookup', 'echo']);
    expect(tools.body.next_cursor).toBe('tool:echo');
    expect((await call(server, 'GET', '/v1/discovery?kind=person')).status).toBe(422);
    expect((await callJson<DiscoveryList>(server, 'GET', '/v1/discovery?q=zzzz')).body.data).toEqual([]);
  });
});

describe('connections and the connector proxy', () => {
  it('links with api_key at once; oauth stays pending until the account holder consents', async () => {
    server = createTestServer();
    const oauth = await callJson<Connection>(server, 'POST', '/v1/connections/crm/link');
    expect(oauth.body).toMatchObject({ provider: 'crm', method: 'oauth', status: 'pending', url: expect.stringContaining('crm') });
    expect((await call(server, 'POST', '/v1/tools/crm_lookup/execute', { body: { query: 'x' } })).status).toBe(424);
    const key = await callJson<Connection>(server, 'POST', '/v1/connections/crm/link', { body: { method: 'api_key', api_key: 'secret' } });
    expect(key.body).toMatchObject({ method: 'api_key', status: 'linked' });
    expect((await call(server, 'POST', '/v1/tools/crm_lookup/execute', { body: { query: 'x' } })).status).toBe(200);
    expect((await callJson<ErrorBody>(server, 'POST', '/v1/connections/crm/link', { body: { method: 'carrier-pigeon' } })).status).toBe(422);
    expect((await callJson<ErrorBody>(server, 'POST', '/v1/connections/x/link', { body: { method: 'api_key' } })).body.error.missing).toEqual(['api_key']);
  });

  it('proxies any method with a linked connection, metered; 424 with connect without one', async () => {
    server = createTestServer();
    const without = await callJson<ErrorBody>(server, 'GET', '/v1/proxy/crm/contacts/42');
    expect(without.status).toBe(424);
    expect(without.body.error.connect).toEqual({ provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' });
    server.linkConnection('demo', 'crm');
    const before = server.wallet('demo').balance_usd;
    const got = await callJson(server, 'GET', '/v1/proxy/crm/contacts/42?fields=name');
    expect(got.body).toMatchObject({ provider: 'crm', method: 'GET', path: '/contacts/42', query: { fields: 'name' }, body: null });
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await callJson(server, method, '/v1/proxy/crm/contacts', { body: { name: 'Ada' } });
      expect(res.body).toMatchObject({ method, body: { name: 'Ada' } });
    }
    expect((await call(server, 'DELETE', '/v1/proxy/crm/contacts/42')).status).toBe(200);
    expect(server.wallet('demo').balance_usd).toBeCloseTo(before - 5 * 0.0005, 9);
    expect((await call(server, 'POST', '/v1/proxy/crm/contacts', { body: 'not json' })).status).toBe(400);
  });

  it('takes the legacy sk-prx- key on the proxy only; X-API-Key answers 401 there', async () => {
    server = createTestServer();
    server.linkConnection('demo', 'crm');
    expect((await call(server, 'GET', '/v1/proxy/crm/x', { key: server.keys.proxyKey })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools', { key: server.keys.proxyKey })).status).toBe(401);
    expect((await call(server, 'GET', '/v1/proxy/crm/x', { key: null, headers: { 'x-api-key': server.apiKey } })).status).toBe(401);
    expect((await call(server, 'GET', '/v1/proxy/crm/x', { key: server.keys.modelsKey })).status).toBe(401);
  });
});
