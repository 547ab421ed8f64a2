import { OzUsageError } from '../core/errors.js';

/** Where a client looked for its key, for the error that says none was found. */
const NO_KEY = 'No API key: pass `apiKey`, set OZ_API_KEY, or sign in with `oz sign-in` to store a profile (OZ_PROFILE selects one)';

/** The error of a client that found no key: it names the three places, in the order they are read. */
export function noApiKeyError(detail: string): OzUsageError {
  return new OzUsageError(`${NO_KEY}; ${detail}.`);
}

/**
 * The key of the selected profile, as a function the transport calls on the first request: the profile file is
 * read then (once; again after a failure), through a module loaded on first use. Undefined where profiles cannot
 * be read (not on Node).
 */
export function profileApiKey(): (() => Promise<string>) | undefined {
  if (typeof process === 'undefined' || !process.versions?.node) return undefined;
  const env = process.env;
  let key: Promise<string> | undefined;
  const load = async (): Promise<string> => {
    const { lookUpProfileKey } = await import('./profileLookup.js');
    const found = await lookUpProfileKey(env);
    if (found.kind === 'key') return found.key;
    if (found.kind === 'missing') throw noApiKeyError(`no profile ${JSON.stringify(found.profile)} in ${found.path}`);
    throw new OzUsageError(`No API key: neither \`apiKey\` nor OZ_API_KEY is set, and the profile file cannot be used: ${found.message}`);
  };
  return () =>
    (key ??= load().catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}
