/**
 * When and how long to wait before another attempt, as the reference client does: retry connection errors,
 * attempt timeouts, 408, 429 and 500+; never 409, 424 or any other 4xx.
 */

/** The backoff schedule without `Retry-After`: 0.5 s, 1 s, 2 s, ... at most 8 s, minus up to 25 % jitter. */
export interface BackoffSchedule {
  initialMs: number;
  maxMs: number;
  /** The share of each wait taken off at random, 0 to 1 (default 0.25). */
  jitter?: number;
}

export const DEFAULT_BACKOFF: BackoffSchedule = { initialMs: 500, maxMs: 8_000 };

/** The share of a backoff wait taken off at random, by default. */
export const DEFAULT_JITTER = 0.25;

/**
 * The longest `Retry-After` the SDK waits inside a call: 60 s. A longer one is not waited out: the call fails at
 * once with the typed error, whose `headers` still carry `Retry-After` for the caller to schedule.
 */
export const RETRY_AFTER_CAP_MS = 60_000;

/** A status worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The backoff before retry number `retryIndex` (0 for the first retry). */
export function backoffDelay(retryIndex: number, schedule: BackoffSchedule = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const base = Math.min(schedule.initialMs * 2 ** retryIndex, schedule.maxMs);
  return base * (1 - random() * (schedule.jitter ?? DEFAULT_JITTER));
}

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

/**
 * The wait before retry number `retryIndex` after an answer: its `Retry-After` when it has one within the cap,
 * `undefined` when it asks for more than the cap (do not retry), else the backoff.
 */
export function retryDelay(headers: Headers, retryIndex: number, schedule: BackoffSchedule = DEFAULT_BACKOFF, capMs: number = RETRY_AFTER_CAP_MS): number | undefined {
  const asked = retryAfterMs(headers);
  if (asked === undefined) return backoffDelay(retryIndex, schedule);
  return asked > capMs ? undefined : asked;
}
