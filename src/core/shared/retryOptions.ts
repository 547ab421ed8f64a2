import { OzUsageError, type OzError } from '../errors/errors.js';
import type { Logger } from './logger.js';

// The retry options a client or a call gives, and the policy the retry loop follows made of them.

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
  /** The call's idempotency key as sent in `x-trace-id`, the same on every attempt (named as the middleware's context names it). */
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

/** Retry options with every default filled in (made by {@link retryPolicyOver}). */
export interface RetryPolicy extends BackoffSchedule {
  readonly jitter: number;
  readonly maxRetryAfterMs: number;
  /** The caller's `shouldRetry`, checked: its verdict, or `retry` (the SDK's) when it answers undefined. */
  readonly verdict?: ((error: OzError, attempt: number, retry: boolean) => boolean) | undefined;
  /** Tells the caller's `onRetry` (what it throws is logged and ignored). */
  readonly observe?: ((info: RetryInfo, log: Logger) => void) | undefined;
}

/** The backoff schedule without `Retry-After`: 0.5 s, 1 s, 2 s, ... at most 8 s, minus up to 25 % jitter. */
export interface BackoffSchedule {
  initialMs: number;
  maxMs: number;
  /** The share of each wait taken off at random, 0 to 1 (default 0.25). */
  jitter?: number;
}

/** `base` with the fields `options` gives over it (checked where they were given: the option table's `retry`). */
export function retryPolicyOver(base: RetryPolicy, options: RetryOptions): RetryPolicy {
  const { initialDelayMs, maxDelayMs, jitter, maxRetryAfterMs, shouldRetry, onRetry } = options;
  return {
    initialMs: initialDelayMs ?? base.initialMs,
    maxMs: maxDelayMs ?? base.maxMs,
    jitter: jitter ?? base.jitter,
    maxRetryAfterMs: maxRetryAfterMs ?? base.maxRetryAfterMs,
    verdict: shouldRetry === undefined ? base.verdict : verdictOf(shouldRetry),
    observe: onRetry === undefined ? base.observe : observerOf(onRetry),
  };
}

/** `onRetry` told of a retry; what it throws is logged and ignored (an observer must not change the call). */
function observerOf(onRetry: NonNullable<RetryOptions['onRetry']>): NonNullable<RetryPolicy['observe']> {
  return (info, log) => {
    try {
      onRetry(info);
    } catch (error) {
      log.warn(`retry.onRetry threw (ignored): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

/** `shouldRetry` asked: its boolean, else the SDK's choice; what it throws, or an answer of another type, is a usage error. */
function verdictOf(shouldRetry: NonNullable<RetryOptions['shouldRetry']>): NonNullable<RetryPolicy['verdict']> {
  return (error, attempt, retry) => {
    let verdict: unknown;
    try {
      verdict = shouldRetry(error, attempt);
    } catch (cause) {
      throw new OzUsageError(`retry.shouldRetry threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (verdict === undefined) return retry;
    if (typeof verdict !== 'boolean') throw new OzUsageError(`retry.shouldRetry must answer true, false or undefined, not ${typeof verdict}.`);
    return verdict;
  };
}
