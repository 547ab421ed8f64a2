import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, RETRY_AFTER_CAP_MS, retryAfterMs, retryDelay } from '../../../src/core/retry/retryPolicy.js';

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
