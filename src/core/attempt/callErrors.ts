import { attemptErrorOf } from '../shared/attemptError.js';
import type { AttemptSignal } from '../shared/attemptSignal.js';
import type { Call } from '../shared/call.js';
import { OzConnectionError, OzError, OzUsageError } from '../errors/errors.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import { errorFromText } from './errorBody.js';
import { isLegacyKeyOffPlane, LegacyKeyError } from '../errors/legacyKeyError.js';
import { inProcessAddressMiss } from '../shared/inProcessAddress.js';

// A failed call's typed error, read only when a call fails: an error answer's (with its legacy-key hint for a 401)
// and a connection error's (the embedded server's in-process address).

/**
 * The typed error of an attempt that failed with `cause`: a middleware's typed error (or what its `next()`
 * rejected with) is kept, unless the attempt was cut; anything else is the attempt's (see `attemptErrorOf`), with
 * the in-process address hint of {@link connectionError}.
 */
export function failedAttemptError(call: Call, signal: AttemptSignal, cause: unknown): OzError {
  const error = cause instanceof OzError && !signal.cut ? cause : attemptErrorOf(signal, cause);
  // No host at the embedded server's in-process address is a setup mistake: no retry can help.
  return error.constructor === OzConnectionError ? connectionError(call.url, error, cause) : error;
}

/**
 * A connection error of an attempt: a usage error where the request went to the embedded server's in-process
 * address and reached no host (a setup mistake no retry can help), else `error` as it is.
 */
export function connectionError(url: string, error: OzError, cause: unknown): OzError {
  const hint = inProcessAddressMiss(url, error === cause ? (error as Error).cause : cause);
  return hint === null ? error : new OzUsageError(hint, { cause });
}

/**
 * The typed error of a non-2xx answer (`text`, its body, already scrubbed of the key): the class of its code or
 * status; a 401 to a legacy key outside its own plane says why (see {@link LegacyKeyError}).
 */
export async function answerError(call: Call, response: Response, text: string): Promise<OzAPIError> {
  const error = await errorFromText(response.status, response.headers, text, response.statusText);
  if (error.status !== 401 || call.op.auth === 'none') return error;
  const keyPlane = isLegacyKeyOffPlane(call.apiKey, call.op.plane);
  return keyPlane ? new LegacyKeyError(error, keyPlane, call.op.plane) : error;
}
