/**
 * The dashboard's keys tab (`{dashboard}/keys`): the list, a key made there (shown once, working against the API),
 * a revoke honouring the key cache's time, legacy keys read-only with revoke, and its forgery and origin rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer, takeViolations } from '../../support/ozServer.js';

let server: OzServer;
beforeEach(() => void (server = createTestServer({ clock: { start: '2026-11-26T10:00:00Z', frozen: true } })));
afterEach(async () => {
  await server.close();
  expect(await takeViolations()).toEqual([]);
});

const ORIGIN = () => new URL(server.url).origin;
const page = async () => (await server.fetch(`${server.dashboardUrl}/keys`)).text();
const formToken = (html: string) => /name="csrf_token" value="([A-Za-z0-9]+)"/.exec(html)![1]!;

function post(path: string, form: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN() }): Promise<Response> {
  return server.fetch(`${server.dashboardUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

const api = (key: string) => server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${key}` } });
const keyCount = () => server.exportState().keys.length;

async function createKey(name: string, expiry = '30'): Promise<{ res: Response; html: string; value: string }> {
  const res = await post('/keys', { csrf_token: formToken(await page()), name, expires_in_days: expiry });
  const html = await res.text();
  return { res, html, value: /id="new-key-value" readonly size="48" value="(ozk_[A-Za-z0-9]{32})"/.exec(html)?.[1] ?? '' };
}

async function expectError(res: Response, status: number, code: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
}

describe('the keys tab', () => {
  it('lists the signed-in account’s keys by name, created, expiry and last characters; legacy keys apart', async () => {
    const res = await server.fetch(`${server.dashboardUrl}/keys`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    const html = await res.text();
    expect(html).toContain('signed in as <strong>demo</strong>');
    const [platform, legacy] = html.split('<h2>Legacy keys</h2>') as [string, string];
    expect(platform).toContain(`ozk_…${server.apiKey.slice(-4)}`);
    expect(legacy).toContain(`sk-mdl-…${server.keys.modelsKey.slice(-4)}`);
    expect(legacy).toContain(`sk-prx-…${server.keys.proxyKey.slice(-4)}`);
    // Legacy keys: a revoke button each, and no form that makes one.
    expect(legacy.match(/>Revoke</g)).toHaveLength(2);
    expect(legacy).not.toContain('name="name"');
    // Another account's key is not listed; no value is ever in the list.
    expect(html).not.toContain(server.keys.otherApiKey.slice(-4) + '<');
    for (const value of [server.apiKey, server.keys.modelsKey, server.keys.proxyKey]) expect(html).not.toContain(value);
    for (const days of ['never', '7', '30', '90', '180', '365']) expect(html).toContain(`<option value="${days}"`);
  });

  it('creates a key: its value shown once, working against the API, listed after by its last characters only', async () => {
    const { res, value } = await createKey('ci deploys', '7');
    expect(res.status).toBe(201);
    expect(value).toMatch(/^ozk_/);
    expect((await api(value)).status).toBe(200);
    const list = await page();
    expect(list).not.toContain(value);
    expect(list).toContain(`ozk_…${value.slice(-4)}`);
    expect(list).toContain('ci deploys');
    const key = server.exportState().keys.find((k) => k.name === 'ci deploys')!;
    expect(key.expires_at! - key.created_at).toBe(7 * 86_400_000);
  });

  it('revokes a key: it works for the key cache’s time, then answers 401', async () => {
    const { value } = await createKey('to revoke');
    const id = server.exportState().keys.find((k) => k.name === 'to revoke')!.id;
    const res = await post(`/keys/${id}/revoke`, { csrf_token: formToken(await page()) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('stops working at 2026-11-26T10:02:00.000Z');
    expect((await api(value)).status).toBe(200);
    await server.clock.advance(120_000);
    expect((await api(value)).status).toBe(401);
    expect(await page()).toMatch(/<td>to revoke<\/td>(<td>[^<]*<\/td>){3}<td>Revoked<\/td><td>–<\/td>/);
  });

  it('revokes a legacy key the same way', async () => {
    const id = server.exportState().keys.find((k) => k.kind === 'models')!.id;
    expect((await post(`/keys/${id}/revoke`, { csrf_token: formToken(await page()) })).status).toBe(200);
    await server.clock.advance(120_000);
    const res = await server.fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${server.keys.modelsKey}` } });
    expect(res.status).toBe(401);
  });

  it('refuses writes without the page’s Origin or anti-forgery token: 403 forbidden_origin, nothing changed', async () => {
    const csrf_token = formToken(await page());
    const before = keyCount();
    const form = { csrf_token, name: 'forged', expires_in_days: '30' };
    await expectError(await post('/keys', form, {}), 403, 'forbidden_origin');
    await expectError(await post('/keys', form, { origin: 'https://evil.example' }), 403, 'forbidden_origin');
    await expectError(await post('/keys', form, { origin: 'null' }), 403, 'forbidden_origin');
    await expectError(await post('/keys', { name: 'forged', expires_in_days: '30' }), 403, 'forbidden_origin');
    await expectError(await post('/keys', { ...form, csrf_token: 'A'.repeat(32) }), 403, 'forbidden_origin');
    await expectError(
      await server.fetch(`${server.dashboardUrl}/keys`, {
        method: 'POST',
        headers: { origin: ORIGIN(), 'content-type': 'text/plain' },
        body: new URLSearchParams(form).toString(),
      }),
      403,
      'forbidden_origin',
    );
    const id = server.exportState().keys[0]!.id;
    await expectError(await post(`/keys/${id}/revoke`, { csrf_token }, { origin: 'https://evil.example' }), 403, 'forbidden_origin');
    expect(keyCount()).toBe(before);
    expect(server.exportState().keys.every((k) => k.revoked_at === null)).toBe(true);
    expect(
      (await server.fetch(`${server.dashboardUrl}/keys`, { headers: { origin: 'https://evil.example' } })).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('checks the form: a name of 1 to 100 characters and an offered expiry (400 invalid_request)', async () => {
    const csrf_token = formToken(await page());
    const before = keyCount();
    await expectError(await post('/keys', { csrf_token, name: ' ', expires_in_days: '30' }), 400, 'invalid_request');
    await expectError(await post('/keys', { csrf_token, name: 'x'.repeat(101), expires_in_days: '30' }), 400, 'invalid_request');
    await expectError(await post('/keys', { csrf_token, name: 'ok', expires_in_days: '14' }), 400, 'invalid_request');
    await expectError(await post('/keys', { csrf_token, name: 'ok' }), 400, 'invalid_request');
    expect(keyCount()).toBe(before);
    const { res } = await createKey('forever', 'never');
    expect(res.status).toBe(201);
    expect(server.exportState().keys.find((k) => k.name === 'forever')!.expires_at).toBeNull();
  });

  it('revokes only the signed-in account’s keys (404 key_not_found), and a signed-out dashboard answers 401', async () => {
    const csrf_token = formToken(await page());
    const other = server.exportState().keys.find((k) => k.account === 'other')!.id;
    await expectError(await post(`/keys/${other}/revoke`, { csrf_token }), 404, 'key_not_found');
    await expectError(await post('/keys/key_nope/revoke', { csrf_token }), 404, 'key_not_found');
    server.dashboard.signInAs(null);
    expect(await page()).toContain('No one is signed in');
    await expectError(await post('/keys', { csrf_token, name: 'x', expires_in_days: '30' }), 401, 'unauthorized');
    server.dashboard.signInAs('other');
    expect(await page()).toContain(`ozk_…${server.keys.otherApiKey.slice(-4)}`);
  });

  it('bounds the form body (413 payload_too_large) and answers 404 for other routes under /keys', async () => {
    const small = createTestServer({ maxBodyBytes: 1024 });
    const csrf = formToken(await (await small.fetch(`${small.dashboardUrl}/keys`)).text());
    const res = await small.fetch(`${small.dashboardUrl}/keys`, {
      method: 'POST',
      headers: { origin: new URL(small.url).origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf_token=${csrf}&name=${'x'.repeat(2000)}`,
    });
    await expectError(res, 413, 'payload_too_large');
    await small.close();
    await expectError(await server.fetch(`${server.dashboardUrl}/keys/abc`), 404, 'not_found');
    await expectError(await post('/keys/abc/rename', { csrf_token: formToken(await page()) }), 404, 'not_found');
  });
});
