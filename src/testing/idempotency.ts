import type { Reply } from './answer.js';
import type { RequestContext } from './context.js';
import { invalidParams, OzMockError } from './errors.js';
import { OPENAPI_DOCUMENT } from './operations.js';
import type { Payload } from './render.js';

/** How long a kept answer can be replayed: 24 hours of the server clock (the contract). */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many answers are kept at most, by default; past it the oldest go first. */
export const DEFAULT_IDEMPOTENCY_MAX_ENTRIES = 10_000;

// The contract's `x-trace-id` as openapi.json's `TraceId` parameter describes it: printable ASCII, no spaces.
const TRACE_ID_SCHEMA = (OPENAPI_DOCUMENT as { components: { parameters: { TraceId: { schema: { minLength: number; maxLength: number; pattern: string } } } } })
  .components.parameters.TraceId.schema;
const TRACE_ID = new RegExp(TRACE_ID_SCHEMA.pattern);

/**
 * The request's `x-trace-id`, checked as the contract says: `null` when absent; 422 `invalid_params` when it is
 * empty, longer than 255 characters, or holds anything but printable ASCII without spaces.
 */
export function checkedTraceId(value: string | null): string | null {
  if (value === null) return null;
  const { minLength, maxLength } = TRACE_ID_SCHEMA;
  if (value.length < minLength || value.length > maxLength || !TRACE_ID.test(value)) {
    throw invalidParams(`x-trace-id must be ${minLength} to ${maxLength} printable ASCII characters without spaces.`);
  }
  return value;
}

/**
 * An answer as a handler gave it, before its wire: what a replay renders again on its own wire (with the
 * execution the answer belonged to, sent again as `X-Execution-Id`).
 */
export type KeptAnswer = (
  | { readonly kind: 'payload'; readonly status: number; readonly payload: Payload }
  | { readonly kind: 'json'; readonly status: number; readonly value: unknown }
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

/**
 * Serves a non-run write with a trace id once: the first request runs `handle` and its 2xx answer is kept (an
 * error, or a request that throws, keeps nothing); a replay answers the kept answer again, with the same status,
 * on the wire negotiated for the replay, with `x-idempotent-replayed: true`.
 */
export async function serveOnce(ctx: RequestContext, traceId: string, path: string, handle: () => Reply | Promise<Reply>): Promise<Reply> {
  const { core } = ctx;
  const claim = core.idempotency.claim(ctx.account.name, traceId, ctx.request.method, requestTarget(ctx, path), bodyIdentity(ctx), core.clock.now());
  if (claim.kind === 'replay') {
    ctx.replayed = true;
    const { answer } = claim;
    ctx.executionId = answer.executionId ?? null;
    return answer.kind === 'payload' ? ctx.reply(answer.status, answer.payload, REPLAYED) : ctx.json(answer.status, answer.value, REPLAYED);
  }
  let response: Reply;
  try {
    response = await handle();
  } catch (err) {
    core.idempotency.release(claim.key);
    throw err;
  }
  const answered = ctx.answered;
  if (answered !== null && answered.status >= 200 && answered.status < 300) {
    // A copy: the records a handler answered with change later (a cancelled execution finishes, ...).
    core.idempotency.keep(claim.key, structuredClone({ ...answered, executionId: ctx.executionId }), core.clock.now());
  } else {
    core.idempotency.release(claim.key);
  }
  return response;
}

const REPLAYED: Readonly<Record<string, string>> = { 'x-idempotent-replayed': 'true' };

/**
 * What a replay's body must equal: the parsed document (JSON or YAML) with its keys in a stable order, so the same
 * content in another key order or on the other body format is the same request; a body the operation does not
 * parse (the proxy passes it on) as sent.
 */
function bodyIdentity(ctx: RequestContext): string {
  return ctx.op?.body ? canonicalJson(ctx.body) : (ctx.rawBody ?? '');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The path with its query (the proxy passes it upstream), less `format`: the wire is chosen per request, and a
 * replay answers on its own.
 */
function requestTarget(ctx: RequestContext, path: string): string {
  const url = ctx.request.url;
  const q = url.indexOf('?');
  if (q < 0) return path;
  const query = new URLSearchParams(url.slice(q + 1));
  query.delete('format');
  const rest = query.toString();
  return rest === '' ? path : `${path}?${rest}`;
}
