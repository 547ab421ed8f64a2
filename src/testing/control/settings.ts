import { invalidParams } from '../contract/errors.js';
import { isPlainObject, ownValue } from '../support/plainObject.js';
import type { Store } from '../state/store.js';
import type { Timing } from '../time/timing.js';

/** The settings the command line's flags set and `PATCH /_oz/settings` changes at run time. */
export interface OzSettings {
  /** Requests per minute per key (every account's, and new accounts' default); 0 turns the limit off. */
  readonly rate_limit: number;
  /** One step of an item walk, an async run's start, an async workflow's task (ms of the server clock). */
  readonly step_ms: number;
  /** Between two token events of a stream. */
  readonly token_ms: number;
  /** The poll interval an unfinished execution suggests. */
  readonly poll_ms: number;
  /** How long a revoked key keeps working. */
  readonly key_cache_ms: number;
}

const LIMITS: Readonly<Record<keyof OzSettings, number>> = {
  rate_limit: 1e9,
  step_ms: 3_600_000,
  token_ms: 60_000,
  poll_ms: 3_600_000,
  key_cache_ms: 86_400_000,
};

/** What the settings read and change: the live options, and the accounts (their rate limit). */
export interface SettingsNeeds {
  readonly options: { readonly timing: Timing; readonly keyCacheMs: number; readonly rateLimit: { readonly limit: number; readonly window_ms: number } };
  readonly store: Store;
}

/** The server's settings now. */
export function readSettings(parts: SettingsNeeds): OzSettings {
  const o = parts.options;
  return {
    rate_limit: o.rateLimit.limit <= 0 ? 0 : Math.round((o.rateLimit.limit * 60_000) / o.rateLimit.window_ms),
    step_ms: o.timing.stepMs,
    token_ms: o.timing.tokenMs,
    poll_ms: o.timing.pollMs,
    key_cache_ms: o.keyCacheMs,
  };
}

/** Checks a settings patch whole (422 naming the field); nothing is applied when a field is bad. */
export function checkSettings(patch: unknown): Partial<OzSettings> {
  if (!isPlainObject(patch)) throw invalidParams('The body must be an object of settings.');
  for (const [k, v] of Object.entries(patch)) {
    const max = ownValue<number>(LIMITS, k);
    if (max === undefined) throw invalidParams(`${k} is not a setting (known: ${Object.keys(LIMITS).join(', ')}).`);
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > max) throw invalidParams(`${k} must be an integer from 0 to ${max}.`);
  }
  return patch as Partial<OzSettings>;
}

/**
 * Applies checked settings. The resolved options are the server's live settings (every reader looks them up
 * per use), so they change in place; a new rate limit applies to every account's keys.
 */
export function applySettings(parts: SettingsNeeds, patch: Partial<OzSettings>): OzSettings {
  const timing = parts.options.timing as { stepMs: number; tokenMs: number; pollMs: number };
  if (patch.step_ms !== undefined) timing.stepMs = patch.step_ms;
  if (patch.token_ms !== undefined) timing.tokenMs = patch.token_ms;
  if (patch.poll_ms !== undefined) timing.pollMs = patch.poll_ms;
  if (patch.key_cache_ms !== undefined) (parts.options as { keyCacheMs: number }).keyCacheMs = patch.key_cache_ms;
  if (patch.rate_limit !== undefined) {
    const limit = { limit: patch.rate_limit, window_ms: 60_000 };
    Object.assign(parts.options.rateLimit, limit);
    for (const account of parts.store.data.accounts.values()) account.rate_limit = { ...limit };
  }
  return readSettings(parts);
}
