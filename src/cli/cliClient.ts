import { Oz, type Middleware } from '../index.js';
import { ProfileFileError } from '../profiles/profileFileError.js';
import { foreignServiceProblem, storedProfile } from '../profiles/profileBaseURL.js';
import { profilesPath, readProfiles, selectedProfile } from '../profiles/profileStore.js';
import { CliUsageError } from './cliUsageError.js';
import type { GlobalOptions } from './cliOptions.js';

type Env = Readonly<Record<string, string | undefined>>;
const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/**
 * The client of a command: `--base-url`, else OZ_BASE_URL, else the base URL kept in the profile; `--profile`'s
 * key when given (a usage error when the profile keeps another base URL than the one in use), else the client's
 * own resolution (OZ_API_KEY, then the profile OZ_PROFILE names, then the chosen one, under the same rule).
 * Retries, timeouts and headers from the global flags; `middleware` (the keeper of the answers' bytes) when given.
 */
export async function cliClient(options: GlobalOptions, env: Env, middleware?: Middleware): Promise<Oz> {
  let apiKey: string | undefined;
  let baseURL = options.baseURL ?? set(env.OZ_BASE_URL);
  if (options.profile !== undefined || baseURL === undefined) {
    const path = await profilesPath(env);
    let document;
    try {
      document = await readProfiles(path);
    } catch (error) {
      // Without --profile the client reports a broken file itself, when it needs the key from it.
      if (options.profile !== undefined || !(error instanceof ProfileFileError)) throw error;
    }
    const name = options.profile ?? selectedProfile(document, env);
    const profile = storedProfile(document, name);
    if (options.profile !== undefined) {
      if (profile === undefined)
        throw new CliUsageError(`No profile ${JSON.stringify(name)} in ${path}. \`oz profiles list\` lists them; \`oz sign-in --profile ${name}\` makes it.`);
      // The key goes only to the service it was made for (without --profile the client's lookup says the same).
      const foreign = baseURL === undefined ? undefined : foreignServiceProblem(name, profile, baseURL);
      if (foreign !== undefined) throw new CliUsageError(foreign);
      apiKey = profile.api_key;
    }
    baseURL ??= profile?.base_url;
  }
  if (baseURL === undefined) {
    throw new CliUsageError('No base URL: pass --base-url, set OZ_BASE_URL, or keep one in the profile (`oz sign-in --base-url URL`).');
  }
  return new Oz({
    baseURL,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    defaultHeaders: options.headers,
    ...(middleware !== undefined ? { middleware: [middleware] } : {}),
    // The command line prints errors itself; the client's warnings stay quiet unless OZ_LOG asks.
    logLevel: env.OZ_LOG ? undefined : 'error',
  });
}
