// The wait an answer asks for (`Retry-After`), read by the retry step and by the execution poller.

/**
 * The longest `Retry-After` the SDK waits inside a call: 60 s. A longer one is not waited out: the call fails at
 * once with the typed error, whose `headers` still carry `Retry-After` for the caller to schedule.
 */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * The wait an answer asks for, in milliseconds: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP
 * date (a date in the past is 0). Undefined when neither header is usable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
