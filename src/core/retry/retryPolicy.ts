/**
 * When and how long to wait before another attempt, as the reference client does: retry connection errors,
 * attempt timeouts, 408, 429 and 500+; never 409, 424 or any other 4xx; and the defaults of its waits.
 */
import { OzAbortError, OzConnectionError, type OzError } from '../errors/errors.js';
import { OzResponseTooLargeError } from '../errors/responseTooLargeError.js';
import type { BackoffSchedule, RetryPolicy } from '../shared/retryOptions.js';
import { RETRY_AFTER_CAP_MS, retryAfterMs } from '../shared/retryAfter.js';

export { RETRY_AFTER_CAP_MS, retryAfterMs };

/** The backoff without `Retry-After`, by default: 0.5 s doubling to 8 s. */
export const DEFAULT_BACKOFF: BackoffSchedule = { initialMs: 500, maxMs: 8_000 };

/** The share of a backoff wait taken off at random, by default. */
export const DEFAULT_JITTER = 0.25;

/** The defaults: 0.5 s doubling to 8 s, 25 % jitter, `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { ...DEFAULT_BACKOFF, jitter: DEFAULT_JITTER, maxRetryAfterMs: RETRY_AFTER_CAP_MS };

/** A status worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Statuses the reference client never retries, whatever the answer's `x-should-retry` says: a semantic answer (409
 * `approval_required`, `duplicate_execution_id`) or a connection the user must make (424). Only `shouldRetry` may.
 */
export function isNeverRetriedStatus(status: number): boolean {
  return status === 409 || status === 424;
}

/** The backoff before retry number `retryIndex` (0 for the first retry). */
export function backoffDelay(retryIndex: number, schedule: BackoffSchedule = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const base = Math.min(schedule.initialMs * 2 ** retryIndex, schedule.maxMs);
  return base * (1 - random() * (schedule.jitter ?? DEFAULT_JITTER));
}

/**
 * The wait before retry number `retryIndex` after an answer: its `Retry-After` when it has one within the cap,
 * `undefined` when it asks for more than the cap (do not retry), else the backoff.
 */
export function retryDelay(
  headers: Headers,
  retryIndex: number,
  schedule: BackoffSchedule = DEFAULT_BACKOFF,
  capMs: number = RETRY_AFTER_CAP_MS,
): number | undefined {
  const asked = retryAfterMs(headers);
  if (asked === undefined) return backoffDelay(retryIndex, schedule);
  return asked > capMs ? undefined : asked;
}

/**
 * Whether an attempt that failed with `error` (on `answer`, when one came) is worth another: the SDK's rule, then
 * the answer's `x-should-retry: true|false` (which cannot make a 409 or a 424 retried), then `shouldRetry`, which
 * decides last. An abort by the caller and an answer past `maxResponseBytes` are never retried.
 */
export function wantsRetry(policy: RetryPolicy, error: OzError, attempt: number, answer: Response | undefined): boolean {
  // The same request would get the same answer: not even `shouldRetry` sends it again.
  if (error instanceof OzAbortError || error instanceof OzResponseTooLargeError) return false;
  let retry = answer === undefined ? error instanceof OzConnectionError : isRetryableStatus(answer.status);
  const header = answer?.headers.get('x-should-retry');
  if (header === 'false') retry = false;
  else if (header === 'true' && !isNeverRetriedStatus(answer?.status ?? 0)) retry = true;
  return policy.verdict === undefined ? retry : policy.verdict(error, attempt, retry);
}
