import type { ApiKeySource } from './credentials.js';
import type { Format } from './wire.js';
import type { Logger, LogLevel } from './logger.js';
import type { ValidateMode } from './responseValidation.js';
import type { Middleware } from './middleware.js';
import type { RetryOptions } from './retryOptions.js';

/** A value a query parameter may take: a string, a finite number, a boolean, or an array of those (sent repeated). */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

export type { Format } from './wire.js';

/** Any Fetch-API function: `globalThis.fetch`, undici's, or the embedded server's `server.fetch`. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Extra fields of every `fetch` call's `init`, for example undici's `dispatcher` (a proxy agent, other timeouts)
 * or `keepalive`. The SDK's own `method`, `headers`, `body`, `signal` and `redirect` (it follows redirects itself,
 * within the origin only: see `OzRedirectError`) always win.
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> & Record<string, unknown>;

/**
 * Query parameters: a string, a finite number, a boolean, or an array of those (the parameter repeated:
 * `tag=a&tag=b`); `undefined` and `null` values are left out. Any other value is an `OzUsageError` before anything
 * is sent.
 */
export type QueryParams = Record<string, QueryValue | null | undefined>;

/**
 * How the key is sent: `Authorization: Bearer <key>` (default), or `X-API-Key: <key>`. `x-api-key` applies only
 * where the service accepts it (execution planes and MCP); the models plane, the companies routes and the
 * connector proxy always get the bearer header.
 */
export type AuthHeader = 'bearer' | 'x-api-key';

/**
 * Options every call accepts; each one overrides the client's own for that call only. Those marked deprecated
 * (`apiKey`, `baseURL`, `authHeader`, `fetch`, `logLevel`, `logger`) belong to a client: `oz.withOptions()` makes one.
 */
export interface RequestOptions {
  /** Aborts the call at once, also during a retry wait, with `OzAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds per attempt (default 600000, 10 minutes). A stream's attempt ends at its first byte. */
  timeout?: number;
  /**
   * Streams only: milliseconds a stream may wait without an event before it is closed with
   * `OzStreamIdleTimeoutError` (default 300000, 5 minutes; `Infinity` turns it off). Progress is a complete event:
   * comments (`: ping`) keep the connection alive, not the stream. Node's built-in `fetch` (undici) also gives up
   * on a body silent for its own `bodyTimeout` (300 s): to wait longer, pass a `fetch` using an undici `Agent`
   * with a longer `bodyTimeout`.
   */
  idleTimeout?: number;
  /**
   * Streams only: bytes one event may take before it is complete (default 16 MiB); past them the stream ends with
   * `OzStreamEventTooLargeError`, so a line that never ends cannot grow the client's memory.
   */
  maxEventBytes?: number;
  /**
   * Streams only: milliseconds the whole stream may last, from its answer to its closing event, however lively
   * (default: no limit); past them it ends with `OzStreamTimeoutError`. `timeout` covers each attempt up to the
   * answer's headers.
   */
  streamTimeout?: number;
  /**
   * Streams only: keep the text of the deltas for `finalText()`, `receivedText` and the interruption error's
   * `receivedText` (default true). Turn it off for outputs too large to hold in memory.
   */
  retainStreamText?: boolean;
  /**
   * Bytes of the answer's body the SDK reads at most, counted after decompression (default 64 MiB, over the
   * client's `maxResponseBytes`): past them the attempt is aborted and the call rejects with
   * `OzResponseTooLargeError` (never retried). A stream's events have their own bound, `maxEventBytes`.
   */
  maxResponseBytes?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Backoff, `Retry-After` bound, `shouldRetry` and `onRetry` for this call, each field over the client's. */
  retry?: RetryOptions;
  /**
   * Middleware of this call: it runs inside the client's (the client's first, then these), on every attempt,
   * also for the polls of a lost answer's recovery and of an async pointer's `wait()`.
   */
  middleware?: readonly Middleware[];
  /**
   * The `x-trace-id` of a write (every POST, PUT, PATCH and DELETE), re-sent on every retry so a retried write
   * happens once: on an execute call it becomes the execution id; on any other write a replay answers the first
   * answer again. Generated (`exe_` + 32 random characters) per call when absent.
   */
  idempotencyKey?: string;
  /** The response wire, sent as `?format=` (it wins over `Accept`). `markdown` and `text` answer a string. */
  format?: Format;
  /** Send the request body as JSON (default) or YAML (`text/yaml`, only where the operation takes YAML). */
  bodyFormat?: 'json' | 'yaml';
  /** Extra headers; `null` removes a default header. */
  headers?: Record<string, string | null>;
  /**
   * The key for this call only, or a function that gives it (asked again once after a 401).
   * @deprecated A client's option: make a client with `oz.withOptions({ apiKey })` and call through it (a call that
   *   gives it still works, and logs a warning once per client).
   */
  apiKey?: ApiKeySource;
  /**
   * The base address for this call only.
   * @deprecated A client's option: `oz.withOptions({ baseURL })` (a call that gives it still works, and logs a
   *   warning once per client).
   */
  baseURL?: string;
  /**
   * The Fetch-API function for this call only.
   * @deprecated A client's option: `oz.withOptions({ fetch })`; per call, `fetchOptions` (a call that gives it
   *   still works, and logs a warning once per client).
   */
  fetch?: FetchLike;
  /** Fields of `fetch`'s `init` for this call, over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions;
  /**
   * Query parameters added to this call's URL, over the client's `defaultQuery` (an operation's own parameters,
   * such as a list's `cursor`, win). On the connector proxy they are the upstream query string.
   */
  query?: QueryParams;
  /**
   * How the key is sent, for this call only.
   * @deprecated A client's option: `oz.withOptions({ authHeader })` (a call that gives it still works, and logs a
   *   warning once per client).
   */
  authHeader?: AuthHeader;
  /**
   * The log level for this call only.
   * @deprecated A client's option: `oz.withOptions({ logLevel })` (a call that gives it still works, and logs a
   *   warning once per client).
   */
  logLevel?: LogLevel;
  /**
   * The logger for this call only.
   * @deprecated A client's option: `oz.withOptions({ logger })` (a call that gives it still works, and logs a
   *   warning once per client).
   */
  logger?: Logger;
  /**
   * Check this call's answer against openapi.json: `off`, `warn` (log the first mismatch of each operation) or
   * `strict` (throw `OzResponseValidationError`), over the client's `validate`.
   */
  validate?: ValidateMode;
}
