import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer, takeViolations } from '../../support/ozServer.js';

let server: OzServer;
beforeEach(() => void (server = createTestServer({ clock: { frozen: true } })));
afterEach(async () => {
  await server.close();
  expect(await takeViolations()).toEqual([]);
});

const authorize = (query: string) => server.fetch(`${server.dashboardUrl}/api/cli/authorize?${query}`, { redirect: 'manual' });
const token = (body: string) => server.fetch(`${server.dashboardUrl}/api/cli/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
async function codeOf(): Promise<string> {
  return new URL((await authorize('port=5000&state=abc')).headers.get('location')!).searchParams.get('code')!;
}
async function expectError(res: Response, status: number, code: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({ code, message: expect.any(String) });
}

describe('the embedded server’s dashboard routes', () => {
  it('is at {url}/dashboard and redirects to the callback on 127.0.0.1 with a code and the state', async () => {
    expect(server.dashboardUrl).toBe(`${server.url}/dashboard`);
    const res = await authorize('port=5000&state=a%20b');
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe('http://127.0.0.1:5000/callback');
    expect(loc.searchParams.get('state')).toBe('a b');
    expect(loc.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('authorize without a valid port or a state: 400 invalid_request', async () => {
    await expectError(await authorize('state=abc'), 400, 'invalid_request');
    await expectError(await authorize('port=70000&state=abc'), 400, 'invalid_request');
    await expectError(await authorize('port=5000'), 400, 'invalid_request');
  });

  it('token: 200 with a new key once; then code_used; unknown code invalid_code; bad body invalid_request', async () => {
    const code = await codeOf();
    const ok = await token(JSON.stringify({ code }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ key: expect.stringMatching(/^ozk_/), name: 'cli sign-in', expires_at: expect.any(String), tier: 'pro' });
    await expectError(await token(JSON.stringify({ code })), 400, 'code_used');
    await expectError(await token(JSON.stringify({ code: 'nope' })), 400, 'invalid_code');
    await expectError(await token('not json'), 400, 'invalid_request');
    await expectError(await token('{}'), 400, 'invalid_request');
  });

  it('a code expires after 120 s of the server clock', async () => {
    const code = await codeOf();
    await server.clock.advance(120_001);
    await expectError(await token(JSON.stringify({ code })), 400, 'code_expired');
  });

  it('codes past their 120 s are forgotten when the next one is made (invalid_code, not code_expired)', async () => {
    const old = await codeOf();
    await server.clock.advance(120_001);
    const fresh = await codeOf();
    await expectError(await token(JSON.stringify({ code: old })), 400, 'invalid_code');
    expect((await token(JSON.stringify({ code: fresh }))).status).toBe(200);
  });

  it('40,000 authorize requests without a key keep at most 1,000 live codes: the oldest are dropped first', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 40_000; i++) codes.push(await codeOf());
    // The 1,000 newest work; every older one was dropped.
    for (const code of [codes[0]!, codes[20_000]!, codes[38_999]!]) await expectError(await token(JSON.stringify({ code })), 400, 'invalid_code');
    for (const code of [codes[39_000]!, codes[39_500]!, codes[39_999]!]) expect((await token(JSON.stringify({ code }))).status).toBe(200);
  }, 60_000);

  it('signInAs picks the account, keyName and keyExpiryDays the key; an unknown account throws', async () => {
    server.dashboard.signInAs('other');
    server.dashboard.keyName = 'laptop';
    server.dashboard.keyExpiryDays = null;
    const res = await token(JSON.stringify({ code: await codeOf() }));
    expect(await res.json()).toMatchObject({ name: 'laptop', tier: 'free', expires_at: null });
    expect(() => server.dashboard.signInAs('nobody')).toThrow(/nobody/);
    server.reset();
    expect(await (await token(JSON.stringify({ code: await codeOf() }))).json()).toMatchObject({ name: 'cli sign-in', tier: 'pro' });
  });

  it('signInAs(null): the user refuses, the callback carries error=access_denied and no code', async () => {
    server.dashboard.signInAs(null);
    const loc = new URL((await authorize('port=5000&state=abc')).headers.get('location')!);
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: 'access_denied', state: 'abc' });
  });

  it('other routes 404; the dashboard is not the API: not journaled, not on the MCP URL', async () => {
    await expectError(await server.fetch(`${server.dashboardUrl}/api/cli/token`), 404, 'not_found');
    await expectError(await server.fetch(`${server.dashboardUrl}/billing`), 404, 'not_found');
    await expectError(await server.fetch(`${server.dashboardUrl}/keys`, { method: 'DELETE' }), 404, 'not_found');
    expect(server.journal.count()).toBe(0);
    const onMcp = await server.fetch(`${new URL(server.mcpUrl).origin}/dashboard/api/cli/authorize?port=5000&state=a`, { redirect: 'manual' });
    expect(onMcp.status).toBe(404);
    expect(onMcp.headers.get('x-error-code')).toBe('not_found');
  });
});
