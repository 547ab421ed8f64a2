import { OzAbortError, OzConnectionError, OzUsageError, type OzError } from './errors.js';
import { DEFAULT_BACKOFF, DEFAULT_JITTER, isRetryableStatus, RETRY_AFTER_CAP_MS, type BackoffSchedule } from './retryPolicy.js';

/** What `retry.onRetry` is told before the SDK waits for another attempt. */
export interface RetryInfo {
  /** The operation's `operationId`. */
  readonly operationId: string;
  /** The attempt that failed: 0 for the first. The next one carries `x-oz-retry-count: attempt + 1`. */
  readonly attempt: number;
  /** Milliseconds the SDK waits before the next attempt (`Retry-After`, else the backoff). */
  readonly delayMs: number;
  /** Why: the typed error the attempt ended with. */
  readonly error: OzError;
  /** The call's `x-trace-id`, the same on every attempt. */
  readonly traceId: string | undefined;
}

/**
 * How failed attempts are retried, beside `maxRetries` (which bounds every retry). Every field is optional; the
 * defaults are the reference client's. Given on the client, on `withOptions()` and on a call, each field over
 * the one before.
 */
export interface RetryOptions {
  /** The first backoff wait, in milliseconds, doubled on each retry. Default 500. */
  initialDelayMs?: number | undefined;
  /** The longest backoff wait, in milliseconds. Default 8000. */
  maxDelayMs?: number | undefined;
  /** The share of each backoff wait taken off at random, 0 to 1. Default 0.25; 0 waits exactly. */
  jitter?: number | undefined;
  /**
   * The longest `Retry-After` (or `retry-after-ms`) waited out inside a call, in milliseconds. Default 60000; an
   * answer asking for longer is not retried and throws with its headers (`Infinity` waits any).
   */
  maxRetryAfterMs?: number | undefined;
  /**
   * Decides whether an attempt that failed with `error` is retried (while `maxRetries` allows): `true` forces it
   * (a 409, a middleware's error), `false` forbids it, `undefined` keeps the SDK's choice (connection errors,
   * timeouts, 408, 429 and 5xx, unless the answer's `x-should-retry` says otherwise). `attempt` is the attempt
   * that failed, 0 for the first. Never asked for an abort by the caller's signal. What it throws fails the call.
   */
  shouldRetry?: ((error: OzError, attempt: number) => boolean | undefined) | undefined;
  /** Told of each retry before its wait (an observer: what it throws is logged and ignored). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

/** Retry options with every default filled in. */
export interface RetryPolicy extends BackoffSchedule {
  readonly jitter: number;
  readonly maxRetryAfterMs: number;
  readonly shouldRetry: RetryOptions['shouldRetry'];
  readonly onRetry: RetryOptions['onRetry'];
}

/** The defaults: 0.5 s doubling to 8 s, 25 % jitter, `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialMs: DEFAULT_BACKOFF.initialMs,
  maxMs: DEFAULT_BACKOFF.maxMs,
  jitter: DEFAULT_JITTER,
  maxRetryAfterMs: RETRY_AFTER_CAP_MS,
  shouldRetry: undefined,
  onRetry: undefined,
};

/** `base` with the fields `options` gives, each checked (`where` names the option in messages). */
export function retryPolicyOf(base: RetryPolicy, options: RetryOptions | undefined, where: string): RetryPolicy {
  if (options === undefined) return base;
  if (typeof options !== 'object' || options === null) throw new OzUsageError(`${where} must be an object of retry options, not ${String(options)}.`);
  const { initialDelayMs, maxDelayMs, jitter, maxRetryAfterMs, shouldRetry, onRetry } = options;
  const ms = (name: string, value: number | undefined, infinite: boolean) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !(value >= 0) || (!infinite && !Number.isFinite(value))) {
      throw new OzUsageError(`${where}.${name} must be a number of milliseconds >= 0${infinite ? ' (or Infinity)' : ''}, not ${String(value)}.`);
    }
  };
  ms('initialDelayMs', initialDelayMs, false);
  ms('maxDelayMs', maxDelayMs, true);
  ms('maxRetryAfterMs', maxRetryAfterMs, true);
  if (jitter !== undefined && (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1))) {
    throw new OzUsageError(`${where}.jitter must be a number from 0 to 1 (the share of a wait taken off at random), not ${String(jitter)}.`);
  }
  for (const [name, value] of [['shouldRetry', shouldRetry], ['onRetry', onRetry]] as const) {
    if (value !== undefined && typeof value !== 'function') throw new OzUsageError(`${where}.${name} must be a function, not ${value === null ? 'null' : typeof value}.`);
  }
  return {
    initialMs: initialDelayMs ?? base.initialMs,
    maxMs: maxDelayMs ?? base.maxMs,
    jitter: jitter ?? base.jitter,
    maxRetryAfterMs: maxRetryAfterMs ?? base.maxRetryAfterMs,
    shouldRetry: shouldRetry ?? base.shouldRetry,
    onRetry: onRetry ?? base.onRetry,
  };
}

/**
 * Whether an attempt that failed with `error` (on `answer`, when one came) is worth another: the SDK's rule, then
 * the answer's `x-should-retry: true|false`, then `shouldRetry`. An abort by the caller is never retried.
 */
export function wantsRetry(policy: RetryPolicy, error: OzError, attempt: number, answer: Response | undefined): boolean {
  if (error instanceof OzAbortError) return false;
  let retry = answer === undefined ? error instanceof OzConnectionError : isRetryableStatus(answer.status);
  const header = answer?.headers.get('x-should-retry');
  if (header === 'true') retry = true;
  else if (header === 'false') retry = false;
  if (policy.shouldRetry === undefined) return retry;
  let verdict: unknown;
  try {
    verdict = policy.shouldRetry(error, attempt);
  } catch (cause) {
    throw new OzUsageError(`retry.shouldRetry threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (verdict === undefined) return retry;
  if (typeof verdict !== 'boolean') throw new OzUsageError(`retry.shouldRetry must answer true, false or undefined, not ${typeof verdict}.`);
  return verdict;
}
