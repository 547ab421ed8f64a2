/** A response wire: the format one payload travels in. */
export type Format = 'json' | 'yaml' | 'markdown' | 'text';

/** Any Fetch-API function: `globalThis.fetch`, undici's, or the embedded server's `server.fetch`. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** Options every call accepts; each one overrides the client's own for that call only. */
export interface RequestOptions {
  /** Aborts the call at once, also during a retry wait. */
  signal?: AbortSignal;
  /** Milliseconds per attempt (default 10 minutes). */
  timeout?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** The `x-trace-id` of an execute call; it becomes the execution id. Generated when absent. */
  idempotencyKey?: string;
  /** The response wire. `markdown` and `text` answer a string. */
  format?: Format;
  /** Send the request body as JSON (default) or YAML. */
  bodyFormat?: 'json' | 'yaml';
  /** Extra headers; `null` removes a default header. */
  headers?: Record<string, string | null>;
}
