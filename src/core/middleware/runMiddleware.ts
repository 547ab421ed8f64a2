import { attemptErrorOf } from '../shared/attemptError.js';
import type { AttemptSignal } from '../shared/attemptSignal.js';
import { OzError, OzUsageError } from '../errors/errors.js';
import { OzMiddlewareError } from '../errors/middlewareError.js';
import type { Middleware, MiddlewareContext, MiddlewareNext } from '../shared/middleware.js';
import type { Operation } from '../shared/operation.js';
import { fetchWithinOrigin } from '../redirect/followRedirects.js';
import type { FetchLike, FetchOptions, Format } from '../shared/requestOptions.js';

// The middleware runner: an attempt of a call that has middleware (a call without any never comes here).

/** What an attempt through the middleware reads of its call. */
export interface ChainCall {
  readonly op: Operation;
  readonly mode: 'parse' | 'stream';
  readonly format: Format;
  readonly url: string;
  readonly traceId: string | undefined;
  readonly settings: {
    readonly middleware: readonly Middleware[];
    readonly fetch: FetchLike;
    readonly fetchOptions: FetchOptions | undefined;
  };
}

/**
 * One attempt through the call's middleware: a `Request` of the call, the context, and a `fetch` at the end whose
 * failures are already typed (a middleware sees `OzConnectionError`).
 */
export function throughMiddleware(call: ChainCall, attempt: number, init: RequestInit, signal: AttemptSignal): Promise<Response> {
  const context: MiddlewareContext = {
    operationId: call.op.id,
    plane: call.op.plane,
    wire: call.mode === 'stream' ? 'events' : call.format,
    attempt,
    traceId: call.traceId,
    signal: signal.signal,
  };
  const fetchOptions = call.settings.fetchOptions;
  // The request a middleware hands on goes out as the call's own would: redirects followed by the SDK within the
  // origin only (no credential header ever reaches another), a body re-sent on a 307 or 308.
  const send = async (request: Request): Promise<Response> => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const sent: RequestInit = { method: request.method, headers: request.headers, body, signal: request.signal };
    return fetchWithinOrigin(call.settings.fetch, request.url, fetchOptions === undefined ? sent : { ...fetchOptions, ...sent }).catch((cause: unknown) => {
      throw cause instanceof OzError ? cause : attemptErrorOf(signal, cause);
    });
  };
  return runMiddleware(call.settings.middleware, new Request(call.url, init), context, send, signal.signal);
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
  const typedError = (error: unknown, index: number): Error => {
    if (error instanceof OzError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new OzMiddlewareError(`middleware[${index}] threw: ${message}`, index, { cause: error });
  };
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
