import type { Client, Middleware as FetchMiddleware } from 'openapi-fetch';
import type { Middleware } from '../core/attempt/middleware.js';
import type { paths } from '../generated/openapi.js';

/**
 * Typed calls to any path of openapi.json, for routes the resource classes do not wrap: openapi-fetch's client
 * (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`, typed by the generated `paths`) with the SDK's own transport under it:
 * the key on the header its plane takes, the client's headers and options, retries (`Retry-After`), trace ids on
 * execute calls, an OpenTelemetry span, and typed errors.
 *
 * A non-2xx answer throws its typed `OzAPIError` (as every call of the SDK does), so `error` of an answer is always
 * undefined and `data` is the 2xx body, typed as its JSON answer. openapi-fetch parses it as JSON; pass `parseAs: 'text'` for the markdown,
 * text and YAML wires and `parseAs: 'stream'` (with `stream: true` or an `execute-stream` route) for events.
 */
export type OzRawClient = Omit<Client<paths, 'application/json'>, 'use' | 'eject'> & {
  /**
   * Adds middleware to the raw calls: a function `(request, next, context) => Promise<Response>` is the SDK's
   * {@link Middleware} (the client's own mechanism: it runs inside the client's middleware, on every attempt);
   * an openapi-fetch middleware object (`onRequest`, `onResponse`, `onError`) still runs as openapi-fetch runs
   * it, once per call around the SDK's retries.
   */
  use(...middleware: Array<Middleware | FetchMiddleware>): void;
  /** Removes middleware added with `use()`. */
  eject(...middleware: Array<Middleware | FetchMiddleware>): void;
};
