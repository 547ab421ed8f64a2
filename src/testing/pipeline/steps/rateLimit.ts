import type { Principal, RateState, RequestContext } from '../requestContext.js';
import { OzMockError } from '../../contract/errors.js';
import { isoTime } from '../../support/isoTime.js';

/**
 * Counts a keyed request in its key's window. Over the limit it answers 429 `rate_limited` with `Retry-After`
 * (the refused request is not counted); either way the answer carries the window's headers. A limit of 0 is off.
 */
export function takeRateLimit(ctx: RequestContext, principal: Principal): RateState | null {
  const { limit, window_ms } = principal.account.rate_limit;
  // A limit of 0 turns it off (`--rate-limit 0`): no window, no headers.
  if (limit <= 0) return null;
  const now = ctx.core.store.clock.now();
  const windows = ctx.core.store.data.windows;
  let window = windows.get(principal.key.id);
  if (!window || now >= window.start + window_ms) {
    window = { start: now, count: 0 };
    windows.set(principal.key.id, window);
  }
  const resetMs = window.start + window_ms - now;
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  if (window.count >= limit) {
    ctx.rate = { limit, remaining: 0, reset };
    throw new OzMockError(429, 'rate_limited', `Rate limit of ${limit} requests per ${Math.round(window_ms / 1000)} s reached.`, {
      retryAfter: reset,
      hint: `Retry after ${reset} s.`,
    });
  }
  window.count++;
  return { limit, remaining: limit - window.count, reset };
}

/** The window of a key as `svc_whoami` reports it. */
export function rateWindowOf(ctx: RequestContext, principal: Principal): { limit: number; remaining: number; reset_at: string } {
  const { limit, window_ms } = principal.account.rate_limit;
  const now = ctx.core.store.clock.now();
  const window = ctx.core.store.data.windows.get(principal.key.id);
  const active = window && now < window.start + window_ms ? window : { start: now, count: 0 };
  return { limit, remaining: Math.max(0, limit - active.count), reset_at: isoTime(active.start + window_ms) };
}
