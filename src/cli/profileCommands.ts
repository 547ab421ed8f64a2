import type { Format } from '../index.js';
import { ProfileFileError } from '../profiles/profileFileError.js';
import {
  DEFAULT_PROFILE,
  moveAside,
  profileNameProblem,
  profilesPath,
  readProfiles,
  selectedProfile,
  writeProfiles,
  type Profile,
  type ProfileDocument,
} from '../profiles/profileStore.js';
import { storedProfile } from '../profiles/profileBaseURL.js';
import { CliUsageError } from './cliUsageError.js';
import type { CliIO } from './operationCommand.js';
import { resultText } from './output.js';
import { escapedControls, writeOwn } from './terminalText.js';

/**
 * The profile file to change: a malformed one is renamed aside first (never overwritten; the new name is said on
 * stderr); one that cannot be read, or that others may read, stops the command with its path.
 */
export async function profilesForWrite(io: CliIO): Promise<{ path: string; document: ProfileDocument }> {
  const path = await profilesPath(io.env);
  try {
    return { path, document: (await readProfiles(path)) ?? { version: 1, profiles: {} } };
  } catch (error) {
    if (!(error instanceof ProfileFileError) || error.problem !== 'malformed') throw error;
    const aside = await moveAside(path);
    io.stderr.write(`oz: ${error.message}\noz: moved it to ${aside}; starting a new profile file.\n`);
    return { path, document: { version: 1, profiles: {} } };
  }
}

function checkedName(name: string): string {
  const problem = profileNameProblem(name);
  if (problem) throw new CliUsageError(`--profile: ${problem}.`);
  return name;
}

/**
 * Stores a key under a profile (`oz sign-in`); answers the profile's name and the file's path. The fields the
 * dashboard gave are stored with their control characters escaped: a profile keeps none a server sent.
 */
export async function storeProfile(io: CliIO, requested: string | undefined, profile: Profile): Promise<{ name: string; path: string }> {
  const { path, document } = await profilesForWrite(io);
  const name = checkedName(requested ?? selectedProfile(document, io.env));
  const printable = (text: string | undefined) => (text === undefined ? undefined : escapedControls(text));
  document.profiles[name] = {
    ...profile,
    key_name: printable(profile.key_name),
    tier: printable(profile.tier),
    expires_at: profile.expires_at === null ? null : printable(profile.expires_at),
  };
  await writeProfiles(path, document);
  return { name, path };
}

/** `oz sign-out`: forgets the selected profile's key (or --profile's). */
export async function signOut(io: CliIO, requested: string | undefined): Promise<void> {
  const path = await profilesPath(io.env);
  const document = await readProfiles(path);
  const name = requested ?? selectedProfile(document, io.env);
  if (document === undefined || storedProfile(document, name) === undefined)
    throw new CliUsageError(`No profile ${JSON.stringify(name)} in ${path}: nothing to sign out of.`);
  delete document.profiles[name];
  if (document.current === name) delete document.current;
  await writeProfiles(path, document);
  writeOwn(io.stdout, `Signed out: profile ${JSON.stringify(name)} removed from ${path} (the key itself stays valid until it is revoked on the dashboard).\n`);
}

/** `oz profiles list`: the profiles, the one calls use marked; never a key. */
export async function listProfiles(io: CliIO, format: Format | undefined): Promise<void> {
  const path = await profilesPath(io.env);
  const document = await readProfiles(path);
  const selected = selectedProfile(document, io.env);
  const rows = Object.entries(document?.profiles ?? {}).map(([name, p]) => ({
    name,
    selected: name === selected,
    key_name: p.key_name ?? null,
    tier: p.tier ?? null,
    base_url: p.base_url ?? null,
    expires_at: p.expires_at ?? null,
  }));
  if (format !== undefined) {
    writeOwn(io.stdout, await resultText(rows, format, io.stdout.isTTY === true));
    return;
  }
  if (rows.length === 0) {
    writeOwn(io.stdout, `No profiles in ${path}: \`oz sign-in\` stores one.\n`);
    return;
  }
  for (const row of rows) {
    const facts = [row.key_name && `key ${row.key_name}`, row.tier && `tier ${row.tier}`, row.base_url, row.expires_at && `expires ${row.expires_at}`].filter(
      Boolean,
    );
    writeOwn(io.stdout, `${row.selected ? '*' : ' '} ${row.name}${facts.length ? `  (${facts.join(', ')})` : ''}\n`);
  }
}

/** `oz profiles use NAME`: the profile calls use when OZ_PROFILE is not set. */
export async function useProfile(io: CliIO, name: string | undefined): Promise<void> {
  if (name === undefined) throw new CliUsageError('Missing NAME: oz profiles use NAME.');
  const path = await profilesPath(io.env);
  const document = await readProfiles(path);
  if (document === undefined || storedProfile(document, name) === undefined) {
    throw new CliUsageError(`No profile ${JSON.stringify(name)} in ${path}: \`oz profiles use\` takes a stored profile; \`oz profiles list\` lists them.`);
  }
  if (name === DEFAULT_PROFILE) delete document.current;
  else document.current = name;
  await writeProfiles(path, document);
  writeOwn(io.stdout, `Calls now use profile ${JSON.stringify(name)}${io.env.OZ_PROFILE ? ` (but OZ_PROFILE=${io.env.OZ_PROFILE} is set and wins)` : ''}.\n`);
}
