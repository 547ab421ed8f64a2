import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileFileError } from '../../src/profiles/profileFileError.js';
import { configDir, profileNameProblem, readProfiles, selectedProfile, writeProfiles } from '../../src/profiles/profileStore.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the profile store', () => {
  it('finds the configuration directory: OZ_CONFIG_DIR, else $XDG_CONFIG_HOME/oz, else the platform default', async () => {
    expect(await configDir({ OZ_CONFIG_DIR: '/a/b', XDG_CONFIG_HOME: '/x' })).toBe('/a/b');
    expect(await configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/oz');
    expect(await configDir({ OZ_CONFIG_DIR: '  ' })).toBe(process.platform === 'linux' ? join(homedir(), '.config', 'oz') : await configDir({}));
  });

  it('writes atomically with mode 0600 in a directory it makes with mode 0700, and reads back what it wrote', async () => {
    const root = mkdtempSync(join(tmpdir(), 'oz-store-'));
    dirs.push(root);
    const path = join(root, 'nested', 'profiles.json');
    const document = { version: 1 as const, current: 'work', profiles: { work: { api_key: 'ozk_x', tier: 'pro' } } };
    await writeProfiles(path, document);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'nested')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(root, 'nested'))).toEqual(['profiles.json']);
    expect(await readProfiles(path)).toEqual(document);
    expect(selectedProfile(document, {})).toBe('work');
    expect(selectedProfile(document, { OZ_PROFILE: 'other' })).toBe('other');
    expect(await readProfiles(join(root, 'none.json'))).toBeUndefined();
  });

  it('refuses profile names that are not one word of letters, digits, ".", "_" or "-"', () => {
    expect(profileNameProblem('work-2')).toBeUndefined();
    expect(profileNameProblem('../etc')).toMatch(/a profile name is 1 to 64/);
    expect(profileNameProblem('')).toMatch(/a profile name/);
  });

  it.each([[{ at: 1 }], [42], [['2027']]])('a profile whose expires_at is %j is a malformed file (ProfileFileError)', async (expires) => {
    const root = mkdtempSync(join(tmpdir(), 'oz-store-'));
    dirs.push(root);
    const path = join(root, 'profiles.json');
    writeFileSync(path, JSON.stringify({ version: 1, profiles: { work: { api_key: 'ozk_x', expires_at: expires } } }), { mode: 0o600 });
    const error = await readProfiles(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProfileFileError);
    expect((error as Error).message).toContain('"expires_at" of profile "work" must be a string or null');
  });
});
