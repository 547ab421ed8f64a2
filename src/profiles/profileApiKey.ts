import { OzUsageError } from '../core/errors/errors.js';
import { loadPart } from '../core/optionalPart.js';

/**
 * The key of the selected profile, as a function the transport calls on the first request: the profile file is
 * read then (once per client; again after a failure), by an optional part loaded on first use (profileLookup.ts).
 * Undefined where profiles cannot be read (not on Node).
 */
export function profileApiKey(): (() => Promise<string>) | undefined {
  if (typeof process === 'undefined' || !process.versions?.node) return undefined;
  const env = process.env;
  const token = {};
  return async () => (await loadPart('the profile file', () => import('./profileLookup.js'))).profileKey(token, env, OzUsageError);
}
