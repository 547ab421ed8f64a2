import type { Logger, LogLevel } from './logger.js';

/** A response wire: the format one payload travels in. */
export type Format = 'json' | 'yaml' | 'markdown' | 'text';

/** Any Fetch-API function: `globalThis.fetch`, undici's, or the embedded server's `server.fetch`. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * How the key is sent: `Authorization: Bearer <key>` (default), or `X-API-Key: <key>`. `x-api-key` applies only
 * where the service accepts it (execution planes and MCP); the models plane, the companies routes and the
 * connector proxy always get the bearer header.
 */
export type AuthHeader = 'bearer' | 'x-api-key';

/** Options every call accepts; each one overrides the client's own for that call only. */
export interface RequestOptions {
  /** Aborts the call at once, also during a retry wait, with `OzAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds per attempt (default 600000, 10 minutes). */
  timeout?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * The `x-trace-id` of an execute call; it becomes the execution id and is re-sent on every retry. Generated
   * (`exe_` + 32 random characters) when absent.
   */
  idempotencyKey?: string;
  /** The response wire, sent as `?format=` (it wins over `Accept`). `markdown` and `text` answer a string. */
  format?: Format;
  /** Send the request body as JSON (default) or YAML (`text/yaml`, only where the operation takes YAML). */
  bodyFormat?: 'json' | 'yaml';
  /** Extra headers; `null` removes a default header. */
  headers?: Record<string, string | null>;
  /** The key for this call only. */
  apiKey?: string;
  /** The base address for this call only. */
  baseURL?: string;
  /** The Fetch-API function for this call only. */
  fetch?: FetchLike;
  /** How the key is sent, for this call only. */
  authHeader?: AuthHeader;
  /** The log level for this call only. */
  logLevel?: LogLevel;
  /** The logger for this call only. */
  logger?: Logger;
}
