import { attemptErrorOf } from '../shared/attemptError.js';
import { OzError, OzUsageError } from '../errors/errors.js';
import { OzMiddlewareError } from '../errors/middlewareError.js';
import type { Middleware, MiddlewareContext, MiddlewareNext } from '../shared/middleware.js';
import type { Step } from '../shared/call.js';

// The step of the user's middleware: an attempt of a call that has middleware (a call without any passes through).

/**
 * The client's and the call's middleware around the steps after this one: a `Request` of the attempt and the
 * context; what a middleware hands `next()` goes on as the call's own request would (redirects followed within
 * the origin by the next step, a body re-sent on a 307 or 308), and the failures it sees from `next()` are
 * already typed (`OzConnectionError`).
 */
export const runMiddleware: Step = (call, next) => {
  const chain = call.settings.middleware;
  if (chain.length === 0) return next(call);
  const sending = call.sending!;
  const signal = sending.signal;
  const context: MiddlewareContext = {
    operationId: call.op.id,
    plane: call.op.plane,
    wire: call.mode === 'stream' ? 'events' : call.format,
    attempt: call.attempt,
    traceId: call.idempotencyKey,
    signal: signal.signal,
  };
  const send = async (request: Request): Promise<Response> => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const init: RequestInit = { method: request.method, headers: request.headers, body, signal: request.signal };
    try {
      return (await next({ ...call, url: request.url, sending: { signal, init } })).response;
    } catch (cause) {
      throw cause instanceof OzError ? cause : attemptErrorOf(signal, cause);
    }
  };
  return runChain(chain, new Request(call.url, sending.init), context, send, signal.signal).then((response) => ({ response, text: '' }));
};

/**
 * Runs `request` through `chain` to `send` (the fetch) and answers the `Response` the first middleware gives.
 * Settles when `signal` aborts even if a middleware never does (rejecting with the signal's reason).
 */
function runChain(
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
          new OzUsageError(
            `middleware[${index}] called next() twice in one attempt; a request is sent once per attempt (the SDK retries: see maxRetries and retry).`,
          ),
        );
      }
      if (!isRequest(forwarded)) {
        return Promise.reject(
          new OzUsageError(
            `middleware[${index}] called next() with ${describe(forwarded)}; pass a Request (the one it was given, or new Request(request, changes)).`,
          ),
        );
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
        throw new OzMiddlewareError(
          `middleware[${index}] resolved to ${describe(response)}, not a Response; return next(request) or a Response of its own.`,
          index,
        );
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
  return (
    value instanceof Request ||
    (typeof value === 'object' && value !== null && typeof (value as Request).url === 'string' && typeof (value as Request).method === 'string')
  );
}

function isResponse(value: unknown): value is Response {
  return (
    value instanceof Response ||
    (typeof value === 'object' && value !== null && typeof (value as Response).status === 'number' && typeof (value as Response).headers === 'object')
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value)})` : `${typeof value} ${String(value)}`;
}
