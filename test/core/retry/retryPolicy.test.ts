import { describe, expect, it } from 'vitest';
import { OzAPIError } from '../../../src/core/errors/apiErrors.js';
import { OzAbortError, OzConnectionError, OzError, OzTimeoutError, OzUsageError } from '../../../src/core/errors/errors.js';
import { OzResponseTooLargeError } from '../../../src/core/errors/responseTooLargeError.js';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_JITTER,
  DEFAULT_RETRY_POLICY,
  isNeverRetriedStatus,
  isRetryableStatus,
  RETRY_AFTER_CAP_MS,
  retryAfterMs,
  retryDelay,
  wantsRetry,
} from '../../../src/core/retry/retryPolicy.js';
import type { RetryPolicy } from '../../../src/core/shared/retryOptions.js';

describe('retry policy', () => {
  it('retries 408, 429 and 500+, never 409, 424 or another 4xx', () => {
    expect([408, 429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 410, 422, 424].some(isRetryableStatus)).toBe(false);
  });

  it('backs off 0.5 s, 1 s, 2 s ... at most 8 s, with up to 25 % jitter taken off', () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => backoffDelay(i, undefined, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelay(0, undefined, () => 1)).toBe(375);
    expect(backoffDelay(4, undefined, () => 0.5)).toBe(7000);
  });

  it('reads Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '1' }), now)).toBe(1000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 12:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 11:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '40', 'retry-after': '9' }), now)).toBe(40);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('waits Retry-After up to the 60 s cap, refuses to wait more, and backs off without it', () => {
    expect(RETRY_AFTER_CAP_MS).toBe(60_000);
    expect(retryDelay(new Headers({ 'retry-after': '60' }), 0)).toBe(60_000);
    expect(retryDelay(new Headers({ 'retry-after': '61' }), 0)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '0' }), 3)).toBe(0);
    const backoff = retryDelay(new Headers(), 1);
    expect(backoff).toBeGreaterThanOrEqual(750);
    expect(backoff).toBeLessThanOrEqual(1000);
  });
});

describe('wantsRetry', () => {
  const answer = (status: number, shouldRetry?: string) =>
    new Response(null, { status, headers: shouldRetry === undefined ? {} : { 'x-should-retry': shouldRetry } });
  const apiError = (status: number) => new OzAPIError(status, new Headers(), undefined);
  const retried = (status: number, shouldRetry?: string, policy: RetryPolicy = DEFAULT_RETRY_POLICY) =>
    wantsRetry(policy, apiError(status), 1, answer(status, shouldRetry));

  it('has the defaults: 0.5 s doubling to 8 s, 25 % jitter, Retry-After up to 60 s, no shouldRetry', () => {
    expect(DEFAULT_BACKOFF).toEqual({ initialMs: 500, maxMs: 8_000 });
    expect(DEFAULT_JITTER).toBe(0.25);
    expect(DEFAULT_RETRY_POLICY).toEqual({ initialMs: 500, maxMs: 8_000, jitter: 0.25, maxRetryAfterMs: 60_000 });
  });

  it('without an answer, retries a connection error or a timeout, nothing else', () => {
    expect(wantsRetry(DEFAULT_RETRY_POLICY, new OzConnectionError('cut'), 1, undefined)).toBe(true);
    expect(wantsRetry(DEFAULT_RETRY_POLICY, new OzTimeoutError('slow'), 1, undefined)).toBe(true);
    expect(wantsRetry(DEFAULT_RETRY_POLICY, new OzUsageError('bad'), 1, undefined)).toBe(false);
    expect(wantsRetry(DEFAULT_RETRY_POLICY, new OzError('other'), 1, undefined)).toBe(false);
  });

  it('on an answer, follows the status, then x-should-retry: false forbids and true allows, but not on a 409 or a 424', () => {
    expect([retried(503), retried(408), retried(429), retried(400), retried(409), retried(424)]).toEqual([true, true, true, false, false, false]);
    expect([retried(503, 'false'), retried(429, 'false')]).toEqual([false, false]);
    expect([retried(400, 'true'), retried(422, 'true'), retried(503, 'true')]).toEqual([true, true, true]);
    expect([retried(409, 'true'), retried(424, 'true')]).toEqual([false, false]);
    expect([retried(503, 'yes'), retried(400, 'TRUE'), retried(503, '')]).toEqual([true, false, true]);
    expect([isNeverRetriedStatus(409), isNeverRetriedStatus(424), isNeverRetriedStatus(408), isNeverRetriedStatus(500)]).toEqual([true, true, false, false]);
  });

  it('hands shouldRetry the error, the attempt and the SDK’s verdict, and takes its answer', () => {
    const seen: [OzError, number, boolean][] = [];
    const policy: RetryPolicy = {
      ...DEFAULT_RETRY_POLICY,
      verdict: (error, attempt, retry) => {
        seen.push([error, attempt, retry]);
        return !retry;
      },
    };
    const error = apiError(409);
    expect(wantsRetry(policy, error, 2, answer(409, 'true'))).toBe(true);
    expect(wantsRetry(policy, apiError(503), 3, answer(503))).toBe(false);
    expect(seen).toEqual([
      [error, 2, false],
      [expect.any(OzAPIError), 3, true],
    ]);
  });

  it('never retries an abort or an answer past maxResponseBytes, whatever shouldRetry says', () => {
    const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, verdict: () => true };
    expect(wantsRetry(policy, new OzAbortError('stop'), 1, undefined)).toBe(false);
    expect(wantsRetry(policy, new OzResponseTooLargeError(1, 2), 1, answer(200, 'true'))).toBe(false);
    expect(wantsRetry(policy, new OzUsageError('bad'), 1, undefined)).toBe(true);
  });
});

describe('backoffDelay and retryDelay with a schedule', () => {
  it('takes the schedule’s initial wait, bound and jitter', () => {
    const schedule = { initialMs: 100, maxMs: 250, jitter: 0.5 };
    expect([0, 1, 2].map((i) => backoffDelay(i, schedule, () => 0))).toEqual([100, 200, 250]);
    expect(backoffDelay(1, schedule, () => 1)).toBe(100);
    expect(backoffDelay(0, { initialMs: 100, maxMs: 250 }, () => 1)).toBe(75);
    expect(retryDelay(new Headers(), 2, { initialMs: 10, maxMs: 1_000, jitter: 0 })).toBe(40);
  });

  it('waits a Retry-After up to the cap it is given', () => {
    expect(retryDelay(new Headers({ 'retry-after': '2' }), 0, DEFAULT_BACKOFF, 2_000)).toBe(2_000);
    expect(retryDelay(new Headers({ 'retry-after': '2' }), 0, DEFAULT_BACKOFF, 1_999)).toBeUndefined();
  });
});
