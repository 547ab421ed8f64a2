import type { ServerData } from '../../state/state.js';
import type { Principal, RateState } from '../requestContext.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { OzMockError } from '../../contract/errors.js';
import { isoTime } from '../../support/isoTime.js';

/** A request counted in its key's window: the window's state for the headers, and the 429 when it was refused. */
export interface RateTake {
  readonly state: RateState | null;
  readonly refused: OzMockError | null;
}

/**
 * Counts a keyed request in its key's window. Over the limit it answers 429 `rate_limited` with `Retry-After`
 * (the refused request is not counted); either way the answer carries the window's headers. A limit of 0 is off.
 */
export function takeRateLimit(windows: ServerData['windows'], now: number, principal: Principal): RateTake {
  const { limit, window_ms } = principal.account.rate_limit;
  // A limit of 0 turns it off (`--rate-limit 0`): no window, no headers.
  if (limit <= 0) return { state: null, refused: null };
  let window = windows.get(principal.key.id);
  if (!window || now >= window.start + window_ms) {
    window = { start: now, count: 0 };
    windows.set(principal.key.id, window);
  }
  const resetMs = window.start + window_ms - now;
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  if (window.count >= limit) {
    const refused = new OzMockError(429, 'rate_limited', `Rate limit of ${limit} requests per ${Math.round(window_ms / 1000)} s reached.`, {
      retryAfter: reset,
      hint: `Retry after ${reset} s.`,
    });
    return { state: { limit, remaining: 0, reset }, refused };
  }
  window.count++;
  return { state: { limit, remaining: limit - window.count, reset }, refused: null };
}

/** Step: a keyed request is counted in its key's window; its answer carries the window's headers. */
export const rateLimit: ServerStep<ServerExchange> = (ctx, next) => {
  const request = ctx.ctx;
  if (!request.principal) return next();
  const { parts } = ctx.world;
  const take = takeRateLimit(parts.store.data.windows, parts.clock.now(), request.principal);
  request.rate = take.state;
  if (take.refused) throw take.refused;
  return next();
};

/** The window of a key as `svc_whoami` reports it. */
export function rateWindowOf(windows: ServerData['windows'], now: number, principal: Principal): { limit: number; remaining: number; reset_at: string } {
  const { limit, window_ms } = principal.account.rate_limit;
  const window = windows.get(principal.key.id);
  const active = window && now < window.start + window_ms ? window : { start: now, count: 0 };
  return { limit, remaining: Math.max(0, limit - active.count), reset_at: isoTime(active.start + window_ms) };
}
