import { OzUsageError } from '../core/errors/errors.js';
import { keyOfService } from '../core/shared/credentials.js';
import { loadPart } from '../core/shared/optionalPart.js';

/**
 * The key of the selected profile for a client of `baseURL`, as a function the transport calls on the first
 * request: the profile file is read then (once per client; again after a failure), by an optional part loaded on
 * first use (profileLookup.ts). A profile that keeps another service's base URL gives no key but the `OzUsageError`
 * naming both addresses. Undefined where profiles cannot be read (no `process.versions.node`); where the built package
 * has no Node modules (package.json "imports": `#profile-file`), the lookup finds no profile: the call's `OzUsageError`.
 */
export function profileApiKey(baseURL: string): (() => Promise<string>) | undefined {
  if (typeof process === 'undefined' || !process.versions?.node) return undefined;
  const env = process.env;
  const token = {};
  const key = async () => (await loadPart('the profile file', () => import('./profileLookup.js'))).profileKey(token, env, baseURL, OzUsageError);
  PROFILE_KEYS.add(key);
  // A call given its own baseURL asks the profile for that address (the same lookup and checks), once per address.
  const others = new Map<string, () => Promise<string>>();
  return keyOfService(key, (other) => {
    let found = others.get(other);
    if (found === undefined) others.set(other, (found = profileApiKey(other)!));
    return found;
  });
}

// The functions profileApiKey() made: a key found in a profile, not given by the caller.
const PROFILE_KEYS = new WeakSet<object>();

/** Whether a client's key source is a profile's (bound to the base URL it was made for), not the caller's own. */
export function isProfileKey(source: unknown): boolean {
  return typeof source === 'function' && PROFILE_KEYS.has(source);
}
