import type { OzServer } from '../../../src/testing/index.js';

/** Options of one request to an embedded server. */
export interface CallOptions {
  /** A JSON body (objects are JSON-encoded), or a raw string. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** The bearer key; `null` sends none. Default: the demo key. */
  readonly key?: string | null;
  readonly signal?: AbortSignal;
}

/** Sends one request through the in-process mount. */
export function call(server: OzServer, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? server.apiKey : options.key;
  if (key !== null && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization' || h.toLowerCase() === 'x-api-key')) {
    headers.authorization = `Bearer ${key}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return server.fetch(`${server.url}${path}`, { method, headers, body, signal: options.signal });
}

/** Sends a request and parses its JSON answer. */
export async function callJson<T = Record<string, unknown>>(
  server: OzServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; headers: Headers; body: T }> {
  const res = await call(server, method, path, options);
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

/** The `error` object of an error envelope. */
export interface ErrorBody {
  error: { code: string; message: string; missing?: string[]; connect?: { provider: string; method: string; link: string }; [k: string]: unknown };
}
