import { randomAlnum } from '../support/ids.js';
import { secretsMatch } from '../support/secretMatch.js';

/** The admin token's prefix: `ozadm_`, then 32 characters of [A-Za-z0-9]. */
export const ADMIN_TOKEN_PREFIX = 'ozadm_';

/** Whether a value has the admin token's shape. */
export function isAdminTokenShape(value: string): boolean {
  return /^ozadm_[A-Za-z0-9]{32}$/.test(value);
}

/** A new random admin token. */
export function newAdminToken(): string {
  return ADMIN_TOKEN_PREFIX + randomAlnum(32);
}

/** Checks a presented token against the server's in constant time (only digests are compared). */
export function adminTokenMatches(expected: string, presented: string): boolean {
  return secretsMatch(expected, presented);
}
