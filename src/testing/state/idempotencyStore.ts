import { OzMockError } from '../contract/errors.js';
import type { Payload } from '../wire/render.js';

/** How long a kept answer can be replayed: 24 hours of the server clock (the contract). */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many answers are kept at most, by default; past it the oldest go first. */
export const DEFAULT_IDEMPOTENCY_MAX_ENTRIES = 10_000;

/**
 * An answer as a handler gave it, before its wire: what a replay renders again on its own wire (with the
 * execution the answer belonged to, sent again as `X-Execution-Id`).
 */
export type KeptAnswer = (
  { readonly kind: 'payload'; readonly status: number; readonly payload: Payload } | { readonly kind: 'json'; readonly status: number; readonly value: unknown }
) & { readonly executionId?: string | null };

/** What one (account, trace id) stands for: a request being served, or its kept 2xx answer. */
interface Entry {
  readonly method: string;
  readonly path: string;
  /** The request body as sent: a replay must send the same bytes. */
  readonly body: string;
  /** When it stops counting (server clock); `Infinity` while the first request is being served. */
  expiresAt: number;
  answer: KeptAnswer | null;
}

/** What the store says about a write with a trace id. */
export type Claim =
  /** A first request: serve it, then {@link IdempotencyStore.keep} or {@link IdempotencyStore.release}. */
  | { readonly kind: 'first'; readonly key: string }
  /** A replay: answer the kept answer again. */
  | { readonly kind: 'replay'; readonly answer: KeptAnswer };

/**
 * The kept answers of the non-run writes, under (account, trace id), as the contract's "Writes are safe to
 * retry" says: a 2xx answer is kept for 24 hours of the server clock and replayed to a request with the same
 * method, path and body; another method, path or body, or a request while the first is being served, is 409
 * `idempotency_conflict`. Errors are not kept. Memory is bounded: expired entries are dropped as new ones come,
 * and past `maxEntries` the oldest go first.
 */
export class IdempotencyStore {
  // Insertion order is arrival order: the oldest entries are first, which is also the order they expire in.
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(maxEntries: number = DEFAULT_IDEMPOTENCY_MAX_ENTRIES) {
    if (!(Number.isInteger(maxEntries) && maxEntries >= 1)) throw new RangeError('idempotencyMaxEntries must be a whole number >= 1');
    this.#maxEntries = maxEntries;
  }

  /** How many answers (and requests being served) are kept. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Claims (account, trace id) for a request, or answers its replay. Throws 409 `idempotency_conflict` for
   * another method, path or body, or while the first request is still being served.
   */
  claim(account: string, traceId: string, method: string, path: string, body: string, now: number): Claim {
    this.#sweep(now);
    const key = `${account}\u0000${traceId}`;
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#entries.set(key, { method, path, body, expiresAt: Number.POSITIVE_INFINITY, answer: null });
      this.#trim();
      return { kind: 'first', key };
    }
    if (entry.answer === null) {
      throw conflict(`The request with x-trace-id ${traceId} is still being served; retry once it has answered.`);
    }
    if (entry.method !== method || entry.path !== path || entry.body !== body) {
      throw conflict(`x-trace-id ${traceId} was already used for ${entry.method} ${entry.path} with another request; use a new one.`);
    }
    return { kind: 'replay', answer: entry.answer };
  }

  /** Keeps the 2xx answer of a first request for 24 hours. */
  keep(key: string, answer: KeptAnswer, now: number): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    entry.answer = answer;
    entry.expiresAt = now + REPLAY_WINDOW_MS;
  }

  /** Forgets a first request that did not answer 2xx: a retry runs again. */
  release(key: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.answer === null) this.#entries.delete(key);
  }

  /** Forgets everything (a server reset). */
  clear(): void {
    this.#entries.clear();
  }

  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      // Entries are kept in arrival order; one still being served (Infinity) or not yet expired ends the sweep.
      if (entry.expiresAt > now) break;
      this.#entries.delete(key);
    }
  }

  #trim(): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) return;
      this.#entries.delete(key);
    }
  }
}

function conflict(message: string): OzMockError {
  return new OzMockError(409, 'idempotency_conflict', message, {
    hint: 'Send each distinct write with its own x-trace-id; a retry of the same write sends the same one.',
  });
}
