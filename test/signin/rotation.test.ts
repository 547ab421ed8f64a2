import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Http401Error, Oz, UnauthorizedError } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { createTestServer, takeViolations } from '../support/ozServer.js';

let server: OzServer;
let oz: Oz;

beforeEach(() => {
  server = createTestServer({ clock: { frozen: true } });
  oz = new Oz({ baseURL: server.url, mcpURL: server.mcpUrl, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off', maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
  expect(await takeViolations()).toEqual([]);
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('resolved'),
    (err: unknown) => err,
  );
}

describe('the key rotation recipe, end to end on the SDK', () => {
  it('create, update the client, confirm with whoami, revoke: the old key works for the key cache time, then 401', async () => {
    const created = server.addKey({ account: 'demo', name: 'production 2026-12', expiresInDays: 365 });
    const rotated = oz.withOptions({ apiKey: created.key });
    const me = await rotated.whoami();
    expect(me.key_label).toBe('production 2026-12');
    expect(me.tier).toBe('pro');

    server.revokeKey(server.apiKey);
    expect((await oz.whoami()).key_label).not.toBe('production 2026-12'); // still the old key, still working
    await server.clock.advance(2 * 60_000 - 1);
    expect((await oz.tools.execute('echo', { text: 'just under 2 min' })).content).toBe('just under 2 min');

    await server.clock.advance(2); // 2 * 60_000 + 1 after the revocation
    const err = await rejection(oz.tools.execute('echo', { text: 'old' }));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toBeInstanceOf(Http401Error);
    expect((err as UnauthorizedError).status).toBe(401);
    expect((await rotated.tools.execute('echo', { text: 'new' })).content).toBe('new');
    expect((await rotated.whoami()).key_label).toBe('production 2026-12');
  });

  it('a key from the dashboard’s sign-in rotates the same way', async () => {
    const callback = await server.fetch(`${server.dashboardUrl}/api/cli/authorize?port=4999&state=s`, { redirect: 'manual' });
    const code = new URL(callback.headers.get('location')!).searchParams.get('code');
    const token = await server.fetch(`${server.dashboardUrl}/api/cli/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const { key } = (await token.json()) as { key: string };
    expect((await oz.withOptions({ apiKey: key }).whoami()).key_label).toBe('cli sign-in');
  });

  it('an expiring key (7 days) answers 401 once the clock passes its expiry', async () => {
    const created = server.addKey({ account: 'demo', name: 'week', expiresInDays: 7 });
    const weekly = oz.withOptions({ apiKey: created.key });
    expect(Date.parse(created.expires_at!)).toBe(server.clock.now() + 7 * 86_400_000);
    await server.clock.advance(7 * 86_400_000 - 1);
    expect((await weekly.whoami()).key_label).toBe('week');
    await server.clock.advance(2);
    const err = await rejection(weekly.whoami());
    expect(err).toBeInstanceOf(Http401Error);
    expect((await oz.whoami()).key_label).not.toBe('week'); // the demo key never expires
  });
});
