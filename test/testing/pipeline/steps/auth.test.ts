import { describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../../../src/testing/index.js';
import { testServersForSuite } from '../../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../../support/serverCall.js';

const servers = testServersForSuite();
let server: OzServer;
let listener: OzListener | undefined;

const DAY = 86_400_000;

async function expect401(res: Response, message?: RegExp) {
  expect(res.status).toBe(401);
  expect(res.headers.get('x-error-code')).toBe('unauthorized');
  const body = (await res.json()) as ErrorBody;
  expect(body.error.code).toBe('unauthorized');
  if (message) expect(body.error.message).toMatch(message);
}

describe('authentication (spec: Authentication)', () => {
  it('rule 1: GET /health and GET /v1/openapi.json need no key; everything else does', async () => {
    server = servers.create();
    expect((await call(server, 'GET', '/health', { key: null })).status).toBe(200);
    const doc = await callJson<{ info: { version: string } }>(server, 'GET', '/v1/openapi.json', { key: null });
    expect(doc.body.info.version).toBe('2.4.0');
    for (const [method, path] of [
      ['GET', '/v1/tools'],
      ['GET', '/v1/agents'],
      ['GET', '/v1/executions'],
      ['GET', '/v1/discovery'],
      ['GET', '/v1/traces'],
      ['GET', '/v1/schedules'],
      ['GET', '/v1/workflows'],
      ['GET', '/v1/companies/acme/items'],
      ['GET', '/v1/proxy/crm/x'],
      ['POST', '/v1/connections/crm/link'],
    ] as const) {
      await expect401(await call(server, method, path, { key: null }), /key is required/);
    }
  });

  it('rules 2 and 5: the ozk_ key opens every plane, by bearer', async () => {
    server = servers.create();
    server.linkConnection('demo', 'crm');
    for (const path of [
      '/v1/tools',
      '/v1/agents',
      '/v1/executions',
      '/v1/discovery',
      '/v1/traces',
      '/v1/schedules',
      '/v1/workflows',
      '/v1/companies/acme/items',
      '/v1/proxy/crm/x',
    ]) {
      expect((await call(server, 'GET', path)).status).toBe(200);
    }
  });

  it('rules 3 and 4: a legacy key opens only its own plane; on an execution plane it answers 401 with no fallback', async () => {
    server = servers.create();
    for (const key of [server.keys.modelsKey, server.keys.proxyKey]) {
      for (const path of ['/v1/tools', '/v1/discovery', '/v1/traces', '/v1/workflows', '/v1/companies/acme/items']) {
        await expect401(await call(server, 'GET', path, { key }), /legacy/);
      }
      await expect401(await call(server, 'GET', '/v1/agents', { key: null, headers: { 'x-api-key': key } }), /legacy/);
    }
  });

  it('X-API-Key is accepted on the execution planes (ozk_ keys), not on the bearer-only companies plane', async () => {
    server = servers.create();
    const viaHeader = { key: null, headers: { 'x-api-key': server.apiKey } };
    for (const path of ['/v1/tools', '/v1/agents', '/v1/executions', '/v1/discovery', '/v1/traces', '/v1/schedules', '/v1/workflows']) {
      expect((await call(server, 'GET', path, viaHeader)).status).toBe(200);
    }
    await expect401(await call(server, 'GET', '/v1/companies/acme/items', viaHeader), /not X-API-Key/);
  });

  it('rule 6: the 401 body is the error envelope on the negotiated wire, with X-Error-Code', async () => {
    server = servers.create();
    for (const [format, start] of [
      ['markdown', '# Error: unauthorized\n\n'],
      ['text', 'unauthorized: '],
      ['yaml', 'error:\n  code: unauthorized\n'],
    ] as const) {
      const res = await call(server, 'GET', `/v1/tools?format=${format}`, { key: 'ozk_wrong' });
      expect(res.status).toBe(401);
      expect(res.headers.get('x-error-code')).toBe('unauthorized');
      expect(await res.text()).toMatch(new RegExp(`^${start.replace(/\n/g, '\\n')}`));
    }
  });

  it('answers 401 for an unknown key, an unknown prefix and a malformed Authorization header', async () => {
    server = servers.create();
    await expect401(await call(server, 'GET', '/v1/tools', { key: `ozk_${'A'.repeat(32)}` }), /Invalid key/);
    await expect401(await call(server, 'GET', '/v1/tools', { key: 'pk_live_123' }), /Invalid key/);
    await expect401(await call(server, 'GET', '/v1/tools', { key: null, headers: { authorization: `Basic ${server.apiKey}` } }), /Bearer/);
  });

  it('rule 7: a new key takes the account’s tier; its value is given once, only its hash is kept', async () => {
    server = servers.create();
    const created = server.addKey({ account: 'demo', name: 'ci', expiresInDays: 30 });
    expect(created).toMatchObject({ key: expect.stringMatching(/^ozk_[A-Za-z0-9]{32}$/), tier: 'pro', name: 'ci' });
    expect((await call(server, 'GET', '/v1/tools', { key: created.key })).status).toBe(200);
    const snapshot = JSON.stringify(server.snapshot(), (_k, v: unknown) => (v instanceof Map ? [...v] : v));
    expect(snapshot).toContain(created.id);
    expect(snapshot.includes(created.key)).toBe(false);
    expect(() => server.addKey({ account: 'demo', expiresInDays: 14 as 7 })).toThrow(/expiresInDays/);
  });

  it('rule 9: expiry is checked on every request; an expired key answers 401 from that moment', async () => {
    server = servers.create({ clock: { frozen: true } });
    const { key } = server.addKey({ account: 'demo', expiresInDays: 7 });
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    await server.clock.advance(7 * DAY - 1);
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    await server.clock.advance(1);
    await expect401(await call(server, 'GET', '/v1/tools', { key }), /expired/);
  });

  it('rule 10: a revoked key keeps working for the key cache’s time (about two minutes), then answers 401', async () => {
    server = servers.create({ clock: { frozen: true } });
    const { key, id } = server.addKey({ account: 'demo' });
    server.revokeKey(id);
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    await server.clock.advance(119_999);
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    await server.clock.advance(1);
    await expect401(await call(server, 'GET', '/v1/tools', { key }), /revoked/);
  });

  it('rule 11: rotation without downtime: the new key works while the old one is still cached', async () => {
    server = servers.create({ clock: { frozen: true }, keyCacheMs: 1000 });
    const old = server.addKey({ account: 'demo', name: 'old' });
    const fresh = server.addKey({ account: 'demo', name: 'new' });
    server.revokeKey(old.key);
    expect((await call(server, 'GET', '/v1/tools', { key: old.key })).status).toBe(200);
    await server.clock.advance(1000);
    expect((await call(server, 'GET', '/v1/tools', { key: fresh.key })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools', { key: old.key })).status).toBe(401);
  });

  it('rule 12: a key fenced to addresses answers 401 from any other address (in process: option or header)', async () => {
    server = servers.create({ clientAddress: '10.1.2.3' });
    const { key } = server.addKey({ account: 'demo', addresses: ['10.0.0.0/8', '192.168.1.7'] });
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools', { key, headers: { 'x-oz-mock-client-address': '192.168.1.7' } })).status).toBe(200);
    await expect401(await call(server, 'GET', '/v1/tools', { key, headers: { 'x-oz-mock-client-address': '203.0.113.9' } }), /address/);
  });

  it('rule 12 over HTTP: the socket’s address counts, and the header is ignored', async () => {
    server = servers.create();
    listener = await server.listen();
    const inside = server.addKey({ account: 'demo', addresses: ['127.0.0.1'] }).key;
    const outside = server.addKey({ account: 'demo', addresses: ['10.9.9.9'] }).key;
    expect((await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${inside}` } })).status).toBe(200);
    const res = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${outside}`, 'x-oz-mock-client-address': '10.9.9.9' } });
    await expect401(res, /address/);
  });
});

describe('rate limits', () => {
  it('carries x-ratelimit-* on every keyed answer and answers 429 rate_limited with Retry-After over the limit', async () => {
    server = servers.create({ clock: { frozen: true }, rateLimit: { limit: 2, windowMs: 10_000 } });
    const first = await call(server, 'GET', '/v1/tools');
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining'), first.headers.get('x-ratelimit-reset')]).toEqual([
      '2',
      '1',
      '10',
    ]);
    const invalid = await call(server, 'GET', '/v1/tools?limit=0');
    expect([invalid.status, invalid.headers.get('x-ratelimit-remaining')]).toEqual([422, '0']);
    await server.clock.advance(4000);
    const limited = await call(server, 'GET', '/v1/tools?format=text');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-error-code')).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('6');
    expect(await limited.text()).toMatch(/^rate_limited: /);
    expect((await call(server, 'GET', '/v1/tools', { key: server.keys.otherApiKey })).status).toBe(200);
    await server.clock.advance(6000);
    expect((await call(server, 'GET', '/v1/tools')).status).toBe(200);
    expect((await call(server, 'GET', '/health', { key: null })).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('takes a per-account limit', async () => {
    server = servers.create();
    server.addAccount({ name: 'tiny', rateLimit: { limit: 1 } });
    const { key } = server.addKey({ account: 'tiny' });
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/tools', { key })).status).toBe(429);
  });
});
