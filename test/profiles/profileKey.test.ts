/**
 * The client's key, in the documented order: the `apiKey` option, OZ_API_KEY, then the profile OZ_PROFILE names
 * (else the chosen one, else `default`) in the configuration directory, read on the first call (Node only).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../src/index.js';
import { envelope, KEY, rejectionOf } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: envelope('ok') }));
const saved = { ...process.env };
let dir: string;

const PROFILE_KEY = 'ozk_ProfileKey0123456789abcdefghijkl';
const WORK_KEY = 'ozk_WorkKey0123456789abcdefghijklmnop';

function writeProfiles(document: unknown, mode = 0o600): string {
  const file = join(dir, 'profiles.json');
  writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document), { mode });
  chmodSync(file, mode);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oz-profiles-'));
  delete process.env.OZ_API_KEY;
  delete process.env.OZ_PROFILE;
  process.env.OZ_CONFIG_DIR = dir;
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

const authorization = () => server.requests.at(-1)!.headers.authorization;

describe('the client reads its key from a profile', () => {
  it('uses the default profile when neither apiKey nor OZ_API_KEY is given', async () => {
    writeProfiles({ version: 1, profiles: { default: { api_key: PROFILE_KEY }, work: { api_key: WORK_KEY } } });
    await new Oz({ baseURL: server.url }).tools.get('echo');
    expect(authorization()).toBe(`Bearer ${PROFILE_KEY}`);
  });

  it('uses the profile OZ_PROFILE names, else the one `oz profiles use` chose', async () => {
    writeProfiles({ version: 1, current: 'work', profiles: { default: { api_key: PROFILE_KEY }, work: { api_key: WORK_KEY } } });
    await new Oz({ baseURL: server.url }).tools.get('echo');
    expect(authorization()).toBe(`Bearer ${WORK_KEY}`);
    process.env.OZ_PROFILE = 'default';
    await new Oz({ baseURL: server.url }).tools.get('echo');
    expect(authorization()).toBe(`Bearer ${PROFILE_KEY}`);
  });

  it('puts the apiKey option first and OZ_API_KEY second; the profile file is then never read', async () => {
    writeProfiles('not even json');
    process.env.OZ_API_KEY = KEY;
    await new Oz({ baseURL: server.url }).tools.get('echo');
    expect(authorization()).toBe(`Bearer ${KEY}`);
    await new Oz({ baseURL: server.url, apiKey: WORK_KEY }).tools.get('echo');
    expect(authorization()).toBe(`Bearer ${WORK_KEY}`);
  });

  it('reads the file once per client', async () => {
    const file = writeProfiles({ version: 1, profiles: { default: { api_key: PROFILE_KEY } } });
    const client = new Oz({ baseURL: server.url });
    await client.tools.get('echo');
    rmSync(file);
    await client.tools.get('echo');
    expect(authorization()).toBe(`Bearer ${PROFILE_KEY}`);
  });

  it('without any key, the first call fails naming apiKey, OZ_API_KEY and the profile it looked for, with the file', async () => {
    const error = await rejectionOf(new Oz({ baseURL: server.url }).tools.get('echo'));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/pass `apiKey`, set OZ_API_KEY, or sign in with `oz sign-in`/);
    expect((error as Error).message).toContain(`no profile "default" in ${join(dir, 'profiles.json')}`);
    expect(server.requests).toHaveLength(0);
  });

  it('names the file when others may read it, or when it is malformed', async () => {
    const file = writeProfiles({ version: 1, profiles: { default: { api_key: PROFILE_KEY } } }, 0o644);
    const open = await rejectionOf(new Oz({ baseURL: server.url }).tools.get('echo'));
    expect(open).toBeInstanceOf(OzUsageError);
    expect((open as Error).message).toContain(`${file}: its mode is 0644`);
    writeProfiles({ version: 2, profiles: {} });
    const malformed = await rejectionOf(new Oz({ baseURL: server.url }).tools.get('echo'));
    expect((malformed as Error).message).toContain(`${file}: not a profile file (version must be 1, not 2)`);
    expect(server.requests).toHaveLength(0);
  });

  it('never shows the profile key in the client or its JSON', () => {
    writeProfiles({ version: 1, profiles: { default: { api_key: PROFILE_KEY } } });
    const client = new Oz({ baseURL: server.url });
    expect(JSON.stringify(client)).not.toContain(PROFILE_KEY);
  });
});
