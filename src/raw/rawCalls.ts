import createClient, { defaultBodySerializer, type Middleware as FetchMiddleware } from 'openapi-fetch';
import type { OzUsageError } from '../core/errors/errors.js';
import type { Middleware } from '../core/shared/middleware.js';
import type { Operation } from '../core/shared/operation.js';
import type { FetchLike, RequestOptions } from '../core/shared/requestOptions.js';
import type { Transport } from '../core/transport.js';
import type { OPERATIONS } from '../generated/operations.js';
import type { paths } from '../generated/openapi.js';
import { findRoute } from '../generated/routes.js';
import type { RawFetchMiddleware } from './rawClientType.js';

// The raw client's calls, loaded by rawClient.ts on the first one (an optional part): openapi-fetch over a fetch that sends each
// request as a call of its operation through the transport.

/** What the raw calls take from the client's modules (handed in by rawClient.ts, see there why). */
export interface RawCallParts {
  readonly operations: typeof OPERATIONS;
  readonly OzUsageError: typeof OzUsageError;
  /** The caller's `OzUsageError` for a body JSON cannot write (`core/request/unwritableBody.ts`). */
  readonly unwritableBody: (whose: string, body: unknown, wire: 'JSON', cause: unknown) => OzUsageError;
  /** The middleware added with `raw.use()` (a live list): each raw call runs it inside the client's. */
  readonly middleware: readonly Middleware[];
}

/** The raw calls as rawClient.ts uses them: each method by name, and openapi-fetch's middleware list. */
export interface RawCalls {
  readonly [method: string]: unknown;
  use(...middleware: RawFetchMiddleware[]): void;
  eject(...middleware: RawFetchMiddleware[]): void;
}

/** openapi-fetch's client over `transport`, for a base address `baseURL`. */
export function createRawCalls(transport: Transport, baseURL: string, parts: RawCallParts): RawCalls {
  const base = new URL(baseURL.replace(/\/+$/, '') + '/');
  const send: FetchLike = async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const op = operationOf(request, base, parts);
    return await sendRaw(transport, op, request, parts.middleware.length === 0 ? {} : { middleware: parts.middleware });
  };
  // openapi-fetch's own writer, but a body it cannot write (a BigInt, a cycle) is the caller's OzUsageError saying
  // what and where, as for the resource methods, not a bare TypeError.
  const bodySerializer = (body: unknown, headers?: Headers | Record<string, string>): unknown => {
    try {
      // It is handed the request's headers too (a form-urlencoded body is written as such), which its type omits.
      return (defaultBodySerializer as (body: unknown, headers?: Headers | Record<string, string>) => unknown)(body, headers);
    } catch (cause) {
      throw parts.unwritableBody('the raw request', body, 'JSON', cause);
    }
  };
  const client = createClient<paths, 'application/json'>({
    baseUrl: base.href.replace(/\/$/, ''),
    fetch: send as (request: Request) => Promise<Response>,
    bodySerializer,
  });
  // The middleware objects are openapi-fetch's own shape, declared again in rawClientType.ts (see there why).
  return {
    ...client,
    use: (...middleware) => client.use(...(middleware as FetchMiddleware[])),
    eject: (...middleware) => client.eject(...(middleware as FetchMiddleware[])),
  };
}

/**
 * Sends the raw client's request as one call of `op` through the transport (its key and headers, retries, trace
 * id, span and typed errors). Answers the 2xx answer as a `Response`; `Accept: text/event-stream` (or
 * `stream: true` on a streaming route) leaves its body open. A lost answer found by a retry throws the
 * `DuplicateExecutionIdError`: read the run with `executions.get()`.
 */
async function sendRaw(transport: Transport, op: Operation, request: Request, options: RequestOptions): Promise<Response> {
  const body = request.body === null ? undefined : await request.text();
  const accept = request.headers.get('accept');
  const streamed =
    op.streaming === 'always' ||
    (accept !== null && accept.includes('text/event-stream')) ||
    ((op.streaming === 'optional' || op.streaming === 'chat') && body !== undefined && /"stream"\s*:\s*true/.test(body));
  const mode = streamed ? 'stream' : 'parse';
  const { response, text } = await transport.exchange(op, request.url, body, request.headers, { signal: request.signal, ...options }, mode);
  if (streamed) return response;
  const empty = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(empty ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The operation of openapi.json a request is for, by its method and its path under the base address. */
function operationOf(request: Request, base: URL, { operations, OzUsageError }: RawCallParts): Operation {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(base.pathname) ? `/${url.pathname.slice(base.pathname.length)}` : url.pathname;
  const matched = findRoute(request.method, path);
  if (matched === null) {
    throw new OzUsageError(`No operation of openapi.json is ${request.method} ${path}; the raw client calls the API's own paths only.`);
  }
  return operations[matched.route.operationId];
}
