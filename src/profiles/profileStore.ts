import { ProfileFileError } from './profileFileError.js';

// The profile file: where `oz sign-in` keeps keys and where the client looks for one when neither `apiKey` nor
// OZ_API_KEY gives it. Node only: the client loads it as an optional part (`the profile file`), and a bundle for a
// browser never loads it. Node's own modules load when a function here runs, never at the module's top: a bundle made
// for a runtime without them (Cloudflare Workers) holds this part too, and such a runtime refuses a module whose
// static imports it lacks, though it never runs the part.

/** The file's name inside the configuration directory. */
export const PROFILES_FILE = 'profiles.json';
/** The profile used when neither OZ_PROFILE nor `oz profiles use` chose one. */
export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** One stored profile. */
export interface Profile {
  /** The platform key. Never printed. */
  api_key: string;
  /** The service's base URL the key was made for, when known. */
  base_url?: string | undefined;
  /** The dashboard that issued the key. */
  dashboard_url?: string | undefined;
  /** The key's name on the dashboard. */
  key_name?: string | undefined;
  tier?: string | undefined;
  /** When the key expires (RFC 3339), or null for never. */
  expires_at?: string | null | undefined;
  /** When the profile was written (RFC 3339). */
  created_at?: string | undefined;
}

/** The whole file. */
export interface ProfileDocument {
  version: 1;
  /** The profile chosen with `oz profiles use` (else `default`). */
  current?: string | undefined;
  profiles: Record<string, Profile>;
}

type Env = Readonly<Record<string, string | undefined>>;
const set = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** Why a name cannot be a profile's, or undefined when it can. */
export function profileNameProblem(name: string): string | undefined {
  return PROFILE_NAME.test(name)
    ? undefined
    : `a profile name is 1 to 64 letters, digits, ".", "_" or "-" (starting with a letter or digit), not ${JSON.stringify(name)}`;
}

/**
 * The configuration directory: OZ_CONFIG_DIR, else `$XDG_CONFIG_HOME/oz`, else the platform's own
 * (`%APPDATA%\oz` on Windows, `~/Library/Application Support/oz` on macOS, `~/.config/oz` elsewhere).
 */
export async function configDir(env: Env = process.env): Promise<string> {
  const { join } = await import('node:path');
  const explicit = set(env.OZ_CONFIG_DIR);
  if (explicit) return explicit;
  const xdg = set(env.XDG_CONFIG_HOME);
  if (xdg) return join(xdg, 'oz');
  const { homedir } = await import('node:os');
  if (process.platform === 'win32') return join(set(env.APPDATA) ?? join(homedir(), 'AppData', 'Roaming'), 'oz');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'oz');
  return join(homedir(), '.config', 'oz');
}

/** The profile file's path. */
export async function profilesPath(env: Env = process.env): Promise<string> {
  const { join } = await import('node:path');
  return join(await configDir(env), PROFILES_FILE);
}

/** The profile a call uses: OZ_PROFILE, else the one `oz profiles use` chose, else `default`. */
export function selectedProfile(document: ProfileDocument | undefined, env: Env = process.env): string {
  return set(env.OZ_PROFILE) ?? document?.current ?? DEFAULT_PROFILE;
}

function malformed(path: string, what: string): ProfileFileError {
  return new ProfileFileError(path, 'malformed', `not a profile file (${what}); move it away or fix it`);
}

function checkedDocument(path: string, value: unknown): ProfileDocument {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) throw malformed(path, 'not a JSON object');
  if (value.version !== 1) throw malformed(path, `version must be 1, not ${JSON.stringify(value.version)}`);
  if (value.current !== undefined && typeof value.current !== 'string') throw malformed(path, '"current" must be a string');
  if (!isObject(value.profiles)) throw malformed(path, '"profiles" must be an object');
  for (const [name, profile] of Object.entries(value.profiles)) {
    if (!isObject(profile)) throw malformed(path, `profile ${JSON.stringify(name)} must be an object`);
    if (typeof profile.api_key !== 'string' || profile.api_key === '') throw malformed(path, `profile ${JSON.stringify(name)} has no "api_key"`);
    for (const field of ['base_url', 'dashboard_url', 'key_name', 'tier', 'created_at'] as const) {
      if (profile[field] !== undefined && typeof profile[field] !== 'string')
        throw malformed(path, `"${field}" of profile ${JSON.stringify(name)} must be a string`);
    }
    if (profile.expires_at !== undefined && profile.expires_at !== null && typeof profile.expires_at !== 'string') {
      throw malformed(path, `"expires_at" of profile ${JSON.stringify(name)} must be a string or null`);
    }
  }
  return value as unknown as ProfileDocument;
}

/**
 * Reads the profile file; undefined when there is none. Throws {@link ProfileFileError} when it cannot be read,
 * when its group or others may read it (the key would be theirs too; not checked on Windows), or when it is not a
 * profile document.
 */
export async function readProfiles(path: string): Promise<ProfileDocument | undefined> {
  const { readFile, stat } = await import('node:fs/promises');
  let text: string;
  try {
    const info = await stat(path);
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
      throw new ProfileFileError(
        path,
        'mode',
        `its mode is ${mode}: the group or others may read the keys in it; run \`chmod 600 ${path}\` (and replace any key others may have read)`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof ProfileFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ProfileFileError(path, 'unreadable', `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed(path, 'not JSON');
  }
  return checkedDocument(path, parsed);
}

/**
 * Writes the profile file atomically: a temporary file of mode 0600 beside it, then a rename over it (a reader
 * sees the old file or the new one, never half of one). The directory is made with mode 0700 when missing.
 */
export async function writeProfiles(path: string, document: ProfileDocument): Promise<void> {
  const { mkdir, open, rename, unlink } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  const { randomBytes } = await import('node:crypto');
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(document, null, 2)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new ProfileFileError(path, 'unwritable', `cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
      cause: error,
    });
  }
}

/** Renames a file that cannot be used out of the way (`profiles.json.broken-<time>`); answers the new path. */
export async function moveAside(path: string): Promise<string> {
  const { rename } = await import('node:fs/promises');
  const aside = `${path}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(path, aside);
  return aside;
}
