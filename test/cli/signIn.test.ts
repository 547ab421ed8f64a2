/**
 * `oz sign-in` end to end against the embedded dashboard (the built bins), then calls with the stored profile:
 * the key never printed, the file written with mode 0600, profiles listed and chosen, a broken file named.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { configDir, finished, oz, spawnOz, startMock, type MockServer } from './support/ozProcess.js';

let mock: MockServer;
let config: ReturnType<typeof configDir>;

beforeAll(async () => {
  mock = await startMock();
  config = configDir();
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  config?.remove();
});

/** The authorize URL a running `oz sign-in` prints on stderr. */
function authorizeURL(child: ChildProcess): Promise<string> {
  let stderr = '';
  return new Promise<string>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /(http:\/\/\S+\/api\/cli\/authorize\?\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
  });
}

/** Runs `oz sign-in` and plays the user's browser: opens the printed URL (the dashboard redirects to the CLI's listener). */
async function signIn(args: string[], env: Record<string, string>) {
  const child = await spawnOz(['sign-in', '--dashboard-url', mock.dashboardUrl, ...args], env);
  const done = finished(child);
  const page = await fetch(await authorizeURL(child));
  expect(page.status).toBe(200);
  return await done;
}

describe('oz sign-in and profiles', { timeout: 90_000 }, () => {
  it('stores the key under a profile (mode 0600, never printed), then calls with it: no OZ_API_KEY, no OZ_BASE_URL', async () => {
    const env = { OZ_CONFIG_DIR: config.path };
    const run = await signIn(['--base-url', mock.url], env);
    expect(run.code).toBe(0);
    const file = join(config.path, 'profiles.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { api_key: string; base_url: string }> };
    const key = stored.profiles.default!.api_key;
    expect(key).toMatch(/^ozk_/);
    expect(stored.profiles.default!.base_url).toBe(mock.url);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(run.stdout).toMatch(/stored as profile "default"/);
    expect(run.stdout + run.stderr).not.toContain(key);
    // No temporary file is left beside it.
    expect(readdirSync(config.path)).toEqual(['profiles.json']);

    const who = await oz(['whoami'], env);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ user: 'demo', auth_type: 'platform_key' });
    const call = await oz(['tools', 'execute', 'echo', '--text', 'with the profile', '--format', 'text'], env);
    expect(call.stdout).toBe('with the profile');
  });

  it('keeps several profiles; `profiles use` chooses one, OZ_PROFILE and --profile win; `sign-out` forgets one', async () => {
    const env = { OZ_CONFIG_DIR: config.path };
    await mock.control('POST', '/dashboard/sign-in-as', { account: 'other' });
    try {
      expect((await signIn(['--base-url', mock.url, '--profile', 'work'], env)).code).toBe(0);
    } finally {
      await mock.control('POST', '/dashboard/sign-in-as', { account: 'demo' });
    }
    const list = await oz(['profiles', 'list'], env);
    expect(list.stdout).toMatch(/^\* default {2}\(/m);
    expect(list.stdout).toMatch(/^ {2}work {2}\(/m);
    expect(list.stdout).not.toMatch(/ozk_/);
    const user = async (extraEnv: Record<string, string>, args: string[] = []) =>
      JSON.parse((await oz(['whoami', ...args], { ...env, ...extraEnv })).stdout).user as string;
    expect(await user({}, ['--profile', 'work'])).toBe('other');
    expect(await user({ OZ_PROFILE: 'work' })).toBe('other');
    expect((await oz(['profiles', 'use', 'work'], env)).code).toBe(0);
    expect(await user({})).toBe('other');
    expect(await user({ OZ_PROFILE: 'default' })).toBe('demo');
    const missing = await oz(['profiles', 'use', 'nope'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(join(config.path, 'profiles.json'));
    expect((await oz(['sign-out'], env)).code).toBe(0);
    expect(await user({})).toBe('demo');
  });

  it('refuses a profile file others may read, naming it; renames a malformed one aside before writing a new one', async () => {
    const dir = configDir();
    try {
      const env = { OZ_CONFIG_DIR: dir.path, OZ_BASE_URL: mock.url };
      const file = join(dir.path, 'profiles.json');
      writeFileSync(file, JSON.stringify({ version: 1, profiles: { default: { api_key: mock.apiKey } } }), { mode: 0o644 });
      chmodSync(file, 0o644);
      const open = await oz(['tools', 'list'], env);
      expect(open.code).toBe(2);
      expect(open.stderr).toContain(`${file}: its mode is 0644`);

      writeFileSync(file, '{ not json', { mode: 0o600 });
      chmodSync(file, 0o600);
      const broken = await oz(['profiles', 'list'], env);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain(`${file}: not a profile file (not JSON)`);
      const run = await signIn(['--base-url', mock.url], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/moved it to .*profiles\.json\.broken-/);
      const aside = readdirSync(dir.path).find((name) => name.startsWith('profiles.json.broken-'))!;
      expect(readFileSync(join(dir.path, aside), 'utf8')).toBe('{ not json');
      expect(existsSync(file)).toBe(true);
    } finally {
      dir.remove();
    }
  });
});

describe('oz sign-in against a dashboard that answers control characters', { timeout: 90_000 }, () => {
  // A window title and a screen clear in the key's name and tier, a C1 CSI in its expiry.
  const hostile = { key: 'ozk_HostileDashboardKey0123456789abcd', name: 'k\u001b]0;owned\u0007', tier: 'pro\u001b[2J', expires_at: '2027\u009b2J' };
  const dashboard = ScriptedServer.forSuite(() => ({ body: hostile }));
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('prints none of them piped, stores none in the profile, and `oz profiles list` piped shows none', async () => {
    const dir = configDir();
    try {
      const env = { OZ_CONFIG_DIR: dir.path };
      const child = await spawnOz(['sign-in', '--dashboard-url', dashboard.url, '--base-url', 'http://127.0.0.1:9'], env);
      const done = finished(child);
      const authorize = new URL(await authorizeURL(child));
      // The browser's part: the dashboard sends it back to the command's listener with a code and the state.
      const port = authorize.searchParams.get('port')!;
      const state = authorize.searchParams.get('state')!;
      expect((await fetch(`http://127.0.0.1:${port}/callback?code=c1&state=${encodeURIComponent(state)}`)).status).toBe(200);
      const run = await done;
      expect(run.code).toBe(0);
      expect(dashboard.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/cli/token']);
      expect(run.stdout).toContain('key "k\\\\u001b]0;owned\\\\u0007" (tier pro\\u001b[2J, expires 2027\\u009b2J)');
      expect(run.stdout + run.stderr).not.toMatch(CONTROL);
      const file = readFileSync(join(dir.path, 'profiles.json'), 'utf8');
      const stored = (JSON.parse(file) as { profiles: Record<string, { key_name: string; tier: string; expires_at: string }> }).profiles.default!;
      expect([stored.key_name, stored.tier, stored.expires_at]).toEqual(['k\\u001b]0;owned\\u0007', 'pro\\u001b[2J', '2027\\u009b2J']);
      expect(file).not.toMatch(CONTROL);
      const list = await oz(['profiles', 'list'], env);
      expect(list.stdout).toContain('tier pro\\u001b[2J');
      expect(list.stdout).not.toMatch(CONTROL);
    } finally {
      dir.remove();
    }
  });
});
