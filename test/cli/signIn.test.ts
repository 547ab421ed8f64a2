/**
 * `oz sign-in` end to end against the embedded dashboard (the built bins), then calls with the stored profile:
 * the key never printed, the file written with mode 0600, profiles listed and chosen, a broken file named.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Runs `oz sign-in` and plays the user's browser: opens the printed URL (the dashboard redirects to the CLI's listener). */
async function signIn(args: string[], env: Record<string, string>) {
  const child = await spawnOz(['sign-in', '--dashboard-url', mock.dashboardUrl, ...args], env);
  const done = finished(child);
  let stderr = '';
  const url = await new Promise<string>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /(http:\/\/\S+\/api\/cli\/authorize\?\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
  });
  const page = await fetch(url);
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
    const user = async (extraEnv: Record<string, string>, args: string[] = []) => JSON.parse((await oz(['whoami', ...args], { ...env, ...extraEnv })).stdout).user as string;
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
