/**
 * A profile's key belongs to the service it was made for (contract, 2026-11-26): two embedded servers listening
 * on real loopback, a profile made for A, and a base URL of B in use (the client's `baseURL`, `withOptions`,
 * OZ_BASE_URL, `oz --base-url`): B never sees the key; the call is the usage error naming both addresses.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../src/index.js';
import type { OzListener, OzServer } from '../../src/testing/index.js';
import { rejectionOf } from '../core/support/clients.js';
import { oz } from '../cli/support/ozProcess.js';
import { createTestServer } from '../support/ozServer.js';

let a: OzServer;
let b: OzServer;
let onA: OzListener;
let onB: OzListener;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  a = createTestServer();
  b = createTestServer();
  onA = await a.listen({ port: 0 });
  onB = await b.listen({ port: 0 });
});
afterAll(async () => {
  await Promise.all([onA?.close(), onB?.close()]);
  await Promise.all([a?.close(), b?.close()]);
});

/** Writes profiles.json: `prod` made for A (with A's key), `old` keeping no base URL. */
function writeProfiles(extra: Record<string, unknown> = {}): string {
  const file = join(dir, 'profiles.json');
  const document = { version: 1, profiles: { prod: { api_key: a.apiKey, base_url: onA.url }, old: { api_key: a.apiKey }, ...extra } };
  writeFileSync(file, JSON.stringify(document), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oz-profile-service-'));
  for (const name of ['OZ_API_KEY', 'OZ_PROFILE', 'OZ_BASE_URL']) delete process.env[name];
  process.env.OZ_CONFIG_DIR = dir;
  writeProfiles();
  a.journal.clear();
  b.journal.clear();
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

/** Every Authorization header B received. */
const keysSeenByB = () => b.journal.entries.map((entry) => entry.headers['authorization']);

describe('the client: a profile key goes only to its own base URL', () => {
  it('OZ_PROFILE=prod with new Oz({ baseURL: B }): nothing reaches B; the usage error names both addresses', async () => {
    process.env.OZ_PROFILE = 'prod';
    const error = await rejectionOf(new Oz({ baseURL: onB.url, maxRetries: 0 }).tools.list());
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain(`The key of profile "prod" was made for ${onA.url}, but the base URL in use is ${onB.url}`);
    expect(b.journal.entries).toHaveLength(0);
  });

  it('a call given its own baseURL of B (client on A): nothing reaches B; with its own apiKey the call goes', async () => {
    process.env.OZ_PROFILE = 'prod';
    const client = new Oz({ baseURL: onA.url, maxRetries: 0 });
    await client.tools.list();
    const error = await rejectionOf(client.tools.list({}, { baseURL: onB.url }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain(`The key of profile "prod" was made for ${onA.url}, but the base URL in use is ${onB.url}`);
    expect(b.journal.entries).toHaveLength(0);
    await client.tools.list({}, { baseURL: onB.url, apiKey: b.apiKey });
    expect(keysSeenByB()).toEqual([`Bearer ${b.apiKey}`]);
    // The client's own calls still go to A with the profile's key.
    await client.tools.list({}, { baseURL: `${onA.url}/` });
    expect(a.journal.entries).toHaveLength(2);
  });

  it('OZ_BASE_URL=B with the profile selected by `current`: the same', async () => {
    writeProfiles();
    const file = join(dir, 'profiles.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), current: 'prod' }));
    process.env.OZ_BASE_URL = onB.url;
    expect(await rejectionOf(new Oz({ maxRetries: 0 }).tools.list())).toBeInstanceOf(OzUsageError);
    expect(b.journal.entries).toHaveLength(0);
  });

  it('the same service under another spelling (a trailing slash, an upper-case host) is the same: the key goes', async () => {
    process.env.OZ_PROFILE = 'prod';
    await new Oz({ baseURL: `${onA.url}/`, maxRetries: 0 }).tools.list();
    await new Oz({ baseURL: onA.url.replace('http://', 'HTTP://'), maxRetries: 0 }).tools.list();
    expect(a.journal.entries.map((entry) => entry.headers['authorization'])).toEqual([`Bearer ${a.apiKey}`, `Bearer ${a.apiKey}`]);
  });

  it('withOptions({ baseURL: B }) of a client of A looks the key up again: B gets nothing', async () => {
    process.env.OZ_PROFILE = 'prod';
    const client = new Oz({ baseURL: onA.url, maxRetries: 0 });
    await client.tools.list();
    expect(await rejectionOf(client.withOptions({ baseURL: onB.url }).tools.list())).toBeInstanceOf(OzUsageError);
    expect(b.journal.entries).toHaveLength(0);
  });

  it('a key given explicitly goes where it is told (apiKey, OZ_API_KEY)', async () => {
    process.env.OZ_PROFILE = 'prod';
    await new Oz({ baseURL: onB.url, apiKey: b.apiKey, maxRetries: 0 }).tools.list();
    process.env.OZ_API_KEY = b.apiKey;
    await new Oz({ baseURL: onB.url, maxRetries: 0 }).tools.list();
    expect(keysSeenByB()).toEqual([`Bearer ${b.apiKey}`, `Bearer ${b.apiKey}`]);
  });

  it("a profile that keeps no base URL keeps today's behaviour: its key goes to the base URL in use", async () => {
    process.env.OZ_PROFILE = 'old';
    await new Oz({ baseURL: onB.url, maxRetries: 0 }).tools.list().catch(() => undefined);
    expect(keysSeenByB()).toEqual([`Bearer ${a.apiKey}`]);
  });

  it('OZ_PROFILE=constructor is no profile (not a property of every object)', async () => {
    process.env.OZ_PROFILE = 'constructor';
    const error = await rejectionOf(new Oz({ baseURL: onA.url, maxRetries: 0 }).tools.list());
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toContain('no profile "constructor"');
    expect(a.journal.entries).toHaveLength(0);
  });
});

describe('oz: a profile key goes only to its own base URL', { timeout: 90_000 }, () => {
  const env = () => ({ OZ_CONFIG_DIR: dir });

  it('OZ_BASE_URL=B oz --profile prod tools list: exit 2 naming both addresses, nothing reaches B', async () => {
    const run = await oz(['--profile', 'prod', 'tools', 'list'], { ...env(), OZ_BASE_URL: onB.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The key of profile "prod" was made for ${onA.url}, but the base URL in use is ${onB.url}`);
    expect(run.stdout).toBe('');
    expect(b.journal.entries).toHaveLength(0);
  });

  it('--base-url B with OZ_PROFILE=prod (no --profile): exit 2, nothing reaches B', async () => {
    const run = await oz(['--base-url', onB.url, 'tools', 'list'], { ...env(), OZ_PROFILE: 'prod' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`but the base URL in use is ${onB.url}`);
    expect(b.journal.entries).toHaveLength(0);
  });

  it("the profile's own base URL, or a key given explicitly, works", async () => {
    const own = await oz(['--profile', 'prod', 'tools', 'list'], env());
    expect(own.code).toBe(0);
    expect(a.journal.entries.map((entry) => entry.headers['authorization'])).toEqual([`Bearer ${a.apiKey}`]);
    const explicit = await oz(['tools', 'list'], { ...env(), OZ_PROFILE: 'prod', OZ_BASE_URL: onB.url, OZ_API_KEY: b.apiKey });
    expect(explicit.code).toBe(0);
    expect(keysSeenByB()).toEqual([`Bearer ${b.apiKey}`]);
  });

  it.each(['constructor', '__proto__', 'toString', 'nope'])('oz profiles use %s: exit 2 with a clear message, nothing written', async (name) => {
    const file = join(dir, 'profiles.json');
    const before = readFileSync(file, 'utf8');
    const run = await oz(['profiles', 'use', name], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`No profile "${name}" in ${file}: \`oz profiles use\` takes a stored profile`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('oz --profile constructor tools list: exit 2, no profile of that name', async () => {
    const run = await oz(['--profile', 'constructor', 'tools', 'list'], { ...env(), OZ_BASE_URL: onA.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No profile "constructor"');
    expect(a.journal.entries).toHaveLength(0);
  });
});
