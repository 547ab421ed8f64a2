import type { BackoffSchedule, RetryPolicy } from './retryOptionTypes.js';

// The retry defaults of the reference client, read by every call (the rule and the waits are retryPolicy.ts's).

export const DEFAULT_BACKOFF: BackoffSchedule = { initialMs: 500, maxMs: 8_000 };

/** The share of a backoff wait taken off at random, by default. */
export const DEFAULT_JITTER = 0.25;

/**
 * The longest `Retry-After` the SDK waits inside a call: 60 s. A longer one is not waited out: the call fails at
 * once with the typed error, whose `headers` still carry `Retry-After` for the caller to schedule.
 */
export const RETRY_AFTER_CAP_MS = 60_000;

/** The defaults: 0.5 s doubling to 8 s, 25 % jitter, `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { ...DEFAULT_BACKOFF, jitter: DEFAULT_JITTER, maxRetryAfterMs: RETRY_AFTER_CAP_MS };
