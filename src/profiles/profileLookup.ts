import { profilesPath, readProfiles, selectedProfile } from './profileStore.js';

// Loaded by the client on its first call when neither `apiKey` nor OZ_API_KEY gave a key (profileApiKey.ts).
// It imports nothing the client imports, so a bundle keeps it (and node:fs) in one lazy chunk of its own.

/** What the profile file gives for the selected profile. */
export type ProfileLookup =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'missing'; readonly profile: string; readonly path: string }
  | { readonly kind: 'broken'; readonly message: string };

/** The selected profile's key (OZ_PROFILE, else the chosen profile, else `default`), its absence, or why the file cannot be used. */
export async function lookUpProfileKey(env: Readonly<Record<string, string | undefined>>): Promise<ProfileLookup> {
  const path = await profilesPath(env);
  try {
    const document = await readProfiles(path);
    const profile = selectedProfile(document, env);
    const key = document?.profiles[profile]?.api_key;
    return key === undefined ? { kind: 'missing', profile, path } : { kind: 'key', key };
  } catch (error) {
    return { kind: 'broken', message: (error as Error).message };
  }
}
