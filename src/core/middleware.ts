import { OzError, OzUsageError } from './errors.js';
import { OzMiddlewareError } from './middlewareError.js';
import type { Plane } from './operation.js';
import type { Format } from './requestOptions.js';

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
  /** The call's `x-trace-id` (the same on every attempt; every write has one), undefined when none is sent. */
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

/** `chain` checked to be functions; `where` names the option for the message. */
export function checkedMiddleware(chain: unknown, where: string): readonly Middleware[] {
  if (!Array.isArray(chain)) throw new OzUsageError(`${where} must be an array of functions (request, next, context) => Promise<Response>, not ${describe(chain)}.`);
  chain.forEach((middleware, index) => {
    if (typeof middleware !== 'function') {
      throw new OzUsageError(`${where}[${index}] is ${describe(middleware)}; a middleware is a function (request, next, context) => Promise<Response>.`);
    }
  });
  return chain as readonly Middleware[];
}

/**
 * Runs `request` through `chain` to `send` (the fetch) and answers the `Response` the first middleware gives.
 * Settles when `signal` aborts even if a middleware never does (rejecting with the signal's reason).
 */
export function runMiddleware(
  chain: readonly Middleware[],
  request: Request,
  context: MiddlewareContext,
  send: (request: Request) => Promise<Response>,
  signal: AbortSignal,
): Promise<Response> {
  const dispatch = (index: number, current: Request): Promise<Response> => {
    if (index === chain.length) return send(current);
    let called = false;
    const next: MiddlewareNext = (forwarded) => {
      if (called) {
        return Promise.reject(
          new OzUsageError(`middleware[${index}] called next() twice in one attempt; a request is sent once per attempt (the SDK retries: see maxRetries and retry).`),
        );
      }
      if (!isRequest(forwarded)) {
        return Promise.reject(new OzUsageError(`middleware[${index}] called next() with ${describe(forwarded)}; pass a Request (the one it was given, or new Request(request, changes)).`));
      }
      called = true;
      return dispatch(index + 1, forwarded);
    };
    let answer: Promise<Response>;
    try {
      answer = Promise.resolve(chain[index]!(current, next, context));
    } catch (error) {
      return Promise.reject(typedError(error, index));
    }
    return answer.then(
      (response) => {
        if (isResponse(response)) return response;
        throw new OzMiddlewareError(`middleware[${index}] resolved to ${describe(response)}, not a Response; return next(request) or a Response of its own.`, index);
      },
      (error: unknown) => {
        throw typedError(error, index);
      },
    );
  };
  return untilAborted(dispatch(0, request), signal);
}

function typedError(error: unknown, index: number): OzError {
  if (error instanceof OzError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new OzMiddlewareError(`middleware[${index}] threw: ${message}`, index, { cause: error });
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

// Duck-typed too: a Request or Response of another fetch implementation (undici's package, a polyfill) passes.
function isRequest(value: unknown): value is Request {
  return value instanceof Request || (typeof value === 'object' && value !== null && typeof (value as Request).url === 'string' && typeof (value as Request).method === 'string');
}

function isResponse(value: unknown): value is Response {
  return value instanceof Response || (typeof value === 'object' && value !== null && typeof (value as Response).status === 'number' && typeof (value as Response).headers === 'object');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value)})` : `${typeof value} ${String(value)}`;
}
