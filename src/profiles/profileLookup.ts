import { foreignServiceProblem, storedProfile } from './profileBaseURL.js';
import { profilesPath, readProfiles, selectedProfile } from './profileStore.js';

// Loaded by the client on its first call when neither `apiKey` nor OZ_API_KEY gave a key (profileApiKey.ts).
// It imports nothing the client imports (the error class is handed in), so a bundle keeps it (and node:fs) in one
// lazy chunk of its own.

/** Where a client looks for its key, for the error that says none was found. */
export const NO_API_KEY = 'No API key: pass `apiKey`, set OZ_API_KEY, or sign in with `oz sign-in` to store a profile (OZ_PROFILE selects one)';

/**
 * The selected profile's key (OZ_PROFILE, else the chosen profile, else `default`) for a client of `baseURL`, or
 * why there is none (also: the profile keeps the base URL of another service).
 */
export async function lookUpProfileKey(env: Readonly<Record<string, string | undefined>>, baseURL: string): Promise<string | { readonly problem: string }> {
  const path = await profilesPath(env);
  try {
    const document = await readProfiles(path);
    const name = selectedProfile(document, env);
    const profile = storedProfile(document, name);
    if (profile === undefined) return { problem: `${NO_API_KEY}; no profile ${JSON.stringify(name)} in ${path}.` };
    const foreign = foreignServiceProblem(name, profile, baseURL);
    return foreign === undefined ? profile.api_key : { problem: foreign };
  } catch (error) {
    return { problem: `No API key: neither \`apiKey\` nor OZ_API_KEY is set, and the profile file cannot be used: ${(error as Error).message}` };
  }
}

// Each client's lookup (by the token its profileApiKey() made), while it is pending or after it found the key; a
// failed one is asked again on the next call.
const LOOKUPS = new WeakMap<object, Promise<string>>();

/**
 * The key of the selected profile for the client of `token` (whose base URL is `baseURL`), read once (again after a failure); when there is none,
 * the `UsageError` (the SDK's `OzUsageError`, handed in) that says why.
 */
export function profileKey(
  token: object,
  env: Readonly<Record<string, string | undefined>>,
  baseURL: string,
  UsageError: new (message: string) => Error,
): Promise<string> {
  let key = LOOKUPS.get(token);
  if (key === undefined) {
    key = lookUpProfileKey(env, baseURL).then((found) => {
      if (typeof found === 'string') return found;
      throw new UsageError(found.problem);
    });
    LOOKUPS.set(token, key);
    key.catch(() => LOOKUPS.delete(token));
  }
  return key;
}
