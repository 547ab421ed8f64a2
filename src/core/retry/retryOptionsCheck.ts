import type { OzUsageError } from '../errors/errors.js';
import type { RetryOptions, RetryPolicy } from './retryOptionTypes.js';

// Checking retry options, loaded when a client or a call gives `retry` (OzUsageError handed in: a lazy module
// sharing no module with the client stays one chunk).

// The numeric fields: whether Infinity is allowed, and the upper bound.
const NUMBERS: ReadonlyArray<readonly [keyof RetryOptions, boolean, number]> = [
  ['initialDelayMs', false, Infinity],
  ['maxDelayMs', true, Infinity],
  ['maxRetryAfterMs', true, Infinity],
  ['jitter', false, 1],
];

/** `base` with the fields `options` gives, each checked (`where` names the option in messages). */
export function checkedRetryPolicy(base: RetryPolicy, options: RetryOptions, where: string, UsageError: typeof OzUsageError): RetryPolicy {
  if (typeof options !== 'object' || options === null) throw new UsageError(`${where} must be an object of retry options, not ${String(options)}.`);
  for (const [name, infinite, max] of NUMBERS) {
    const value: unknown = options[name];
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= max && (infinite || value < Infinity))) {
      const range = max === 1 ? 'a number from 0 to 1 (the share of a wait taken off at random)' : `a number of milliseconds >= 0${infinite ? ' (or Infinity)' : ''}`;
      throw new UsageError(`${where}.${name} must be ${range}, not ${String(value)}.`);
    }
  }
  for (const name of ['shouldRetry', 'onRetry'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== 'function') throw new UsageError(`${where}.${name} must be a function, not ${value === null ? 'null' : typeof value}.`);
  }
  const { initialDelayMs, maxDelayMs, jitter, maxRetryAfterMs, shouldRetry, onRetry } = options;
  return {
    initialMs: initialDelayMs ?? base.initialMs,
    maxMs: maxDelayMs ?? base.maxMs,
    jitter: jitter ?? base.jitter,
    maxRetryAfterMs: maxRetryAfterMs ?? base.maxRetryAfterMs,
    verdict: shouldRetry === undefined ? base.verdict : verdictOf(shouldRetry, UsageError),
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
function verdictOf(shouldRetry: NonNullable<RetryOptions['shouldRetry']>, UsageError: typeof OzUsageError): NonNullable<RetryPolicy['verdict']> {
  return (error, attempt, retry) => {
    let verdict: unknown;
    try {
      verdict = shouldRetry(error, attempt);
    } catch (cause) {
      throw new UsageError(`retry.shouldRetry threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (verdict === undefined) return retry;
    if (typeof verdict !== 'boolean') throw new UsageError(`retry.shouldRetry must answer true, false or undefined, not ${typeof verdict}.`);
    return verdict;
  };
}
