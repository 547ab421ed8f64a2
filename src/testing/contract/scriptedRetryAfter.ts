/**
 * The `Retry-After` of a scripted answer (a fault's or a stub's) of status 429 or 503 that names none: 1 second.
 * The contract requires one on every 429 and 503 (the answer check flags its absence), and a client that honours
 * it must not be sent a zero wait by a test that forgot it.
 */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The seconds to send as `Retry-After`: the given ones, else the default for a 429 or a 503, else none. */
export function scriptedRetryAfter(status: number, given: number | undefined): number | undefined {
  if (given !== undefined) return given;
  return status === 429 || status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined;
}

/** A stub answer's headers with `retry-after` added when its status needs one and it has none (any case). */
export function withScriptedRetryAfter(status: number, headers: Record<string, string>): Record<string, string> {
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after')) return headers;
  const seconds = scriptedRetryAfter(status, undefined);
  return seconds === undefined ? headers : { ...headers, 'retry-after': String(seconds) };
}
