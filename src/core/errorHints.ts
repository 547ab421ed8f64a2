import type { Call } from './call.js';
import { OzUsageError, type OzAPIError, type OzError } from './errors/errors.js';
import { isLegacyKeyOffPlane, LegacyKeyError } from './errors/legacyKeyError.js';
import { inProcessAddressMiss } from './inProcessAddress.js';

// What a failed call's error says beyond its status, read only when a call fails so: a connection error (to the
// embedded server's in-process address) and a 401 (to a legacy key).

/**
 * A connection error of an attempt: a usage error where the request went to the embedded server's in-process
 * address and reached no host (a setup mistake no retry can help), else `error` as it is.
 */
export function connectionError(url: string, error: OzError, cause: unknown): OzError {
  const hint = inProcessAddressMiss(url, error === cause ? (error as Error).cause : cause);
  return hint === null ? error : new OzUsageError(hint, { cause });
}

/** A 401 to a legacy key outside its own plane says why (see {@link LegacyKeyError}). */
export function keyHinted(call: Call, error: OzAPIError): OzAPIError {
  const keyPlane = isLegacyKeyOffPlane(call.apiKey, call.op.plane);
  return keyPlane ? new LegacyKeyError(error, keyPlane, call.op.plane) : error;
}
