import { OzAbortError, OzConnectionError, OzUsageError, type OzError } from './errors.js';
import type { Logger } from './logger.js';
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

/** Retry options with every default filled in (made by retryOptionsCheck.ts, loaded when options are given). */
export interface RetryPolicy extends BackoffSchedule {
  readonly jitter: number;
  readonly maxRetryAfterMs: number;
  /** The caller's `shouldRetry`, checked: its verdict, or `retry` (the SDK's) when it answers undefined. */
  readonly verdict?: ((error: OzError, attempt: number, retry: boolean) => boolean) | undefined;
  /** Tells the caller's `onRetry` (what it throws is logged and ignored). */
  readonly observe?: ((info: RetryInfo, log: Logger) => void) | undefined;
}

/** The defaults: 0.5 s doubling to 8 s, 25 % jitter, `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { ...DEFAULT_BACKOFF, jitter: DEFAULT_JITTER, maxRetryAfterMs: RETRY_AFTER_CAP_MS };

let check: Promise<typeof import('./retryOptionsCheck.js')> | undefined;

/** `base` with the fields `options` gives, each checked (`where` names the option in an `OzUsageError`). */
export async function retryPolicyOf(base: RetryPolicy, options: RetryOptions, where: string): Promise<RetryPolicy> {
  const { checkedRetryPolicy } = await (check ??= import('./retryOptionsCheck.js'));
  return checkedRetryPolicy(base, options, where, OzUsageError);
}

/**
 * Whether an attempt that failed with `error` (on `answer`, when one came) is worth another: the SDK's rule, then
 * the answer's `x-should-retry: true|false`, then `shouldRetry`. An abort by the caller is never retried.
 */
export function wantsRetry(policy: RetryPolicy, error: OzError, attempt: number, answer: Response | undefined): boolean {
  if (error instanceof OzAbortError) return false;
  let retry = answer === undefined ? error instanceof OzConnectionError : isRetryableStatus(answer.status);
  const header = answer?.headers.get('x-should-retry');
  if (header === 'true' || header === 'false') retry = header === 'true';
  return policy.verdict === undefined ? retry : policy.verdict(error, attempt, retry);
}
