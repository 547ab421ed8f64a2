import { OzUsageError } from '../errors/errors.js';
import type { Plane } from './operation.js';
import type { Format } from './wire.js';

/** What a middleware knows about the attempt it runs in. */
export interface MiddlewareContext {
  /** The operation's `operationId` in openapi.json (`executeTool`; `getExecution` for the polls of a wait). */
  readonly operationId: string;
  /** The plane the operation belongs to. */
  readonly plane: Plane;
  /** The wire the answer is asked on: `json`, `yaml`, `markdown`, `text`, or `events` (server-sent events). */
  readonly wire: Format | 'events';
  /** The attempt: 0 for the first, 1 for the first retry (the `x-oz-retry-count` the request carries). */
  readonly attempt: number;
  /**
   * The call's idempotency key as sent in `x-trace-id` (the same on every attempt; every write has one; a run
   * takes it as its execution id), undefined when none is sent. `traceId` is the contract's name for it here.
   */
  readonly traceId: string | undefined;
  /** Aborts when the caller's signal aborts or the attempt's `timeout` passes. */
  readonly signal: AbortSignal;
}

/** Sends the request on to the next middleware, or to `fetch` after the last one. Call it at most once. */
export type MiddlewareNext = (request: Request) => Promise<Response>;

/**
 * User code that takes part in every attempt of every request the client makes (resource methods, the polls of
 * `wait()` and of a lost answer's recovery, `oz.raw`, the MCP client), inside the retry loop: it sees a standard
 * `Request` and answers a standard `Response`.
 *
 * - Change the request: `return next(new Request(request, { headers }))`.
 * - Answer it itself: return a `Response` without calling `next` (the SDK reads it as the service's answer: a 2xx
 *   is parsed, an error status becomes its typed error and is retried like one).
 * - Observe the answer: read `response.clone()` (a stream too: the clone is a tee, the caller's copy stays unread).
 * - Throw: the call rejects with the error when it is an `OzError`, else with {@link OzMiddlewareError} (its
 *   `cause` is what was thrown); neither is retried unless `retry.shouldRetry` says so.
 *
 * `next` may be called once per attempt: a second call rejects with `OzUsageError` (retries are the SDK's: use
 * `maxRetries` and `retry`). A middleware that never settles is cut by the attempt's `timeout` or the signal.
 */
export type Middleware = (request: Request, next: MiddlewareNext, context: MiddlewareContext) => Promise<Response>;

/** `chain` checked to be an array of functions; `where` names the option for the message. */
export function checkedMiddleware(chain: unknown, where: string): readonly Middleware[] {
  if (!Array.isArray(chain) || chain.some((middleware) => typeof middleware !== 'function')) {
    throw new OzUsageError(`${where} must be an array of functions (request, next, context) => Promise<Response>.`);
  }
  return chain;
}
