import { OzUsageError } from '../core/errors/errors.js';

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
    const found = await (await import('./profileLookup.js')).lookUpProfileKey(env);
    if (typeof found === 'string') return found;
    throw new OzUsageError(found.problem);
  };
  return () =>
    (key ??= load().catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}
