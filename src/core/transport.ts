import { APIPromise, type ParsedResponse } from './apiPromise.js';
import { OzAPIError, OzConnectionError, OzError, type ErrorBody } from './errors.js';
import type { Operation, RequestInput } from './operation.js';
import { PagePromise, type Page } from './pagination.js';
import type { FetchLike, Format, RequestOptions } from './requestOptions.js';
import { Stream } from './stream.js';
import { WIRE_MEDIA_TYPES } from './wire.js';

/** What a transport is built from: the client's resolved options. */
export interface TransportConfig {
  baseURL: string;
  apiKey: string;
  fetch?: FetchLike;
  defaultHeaders?: Record<string, string>;
}

/** Sends the calls of the generated resources: URL, auth, body, wire, errors. */
export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  /** Sends one call and parses its answer on the chosen wire. */
  request<T>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<T> {
    const streamed = (op.streaming === 'optional' || op.streaming === 'chat') && isStreamBody(input.body);
    return new APIPromise(this.#send<T>(op, input, options, streamed ? 'stream' : 'parse'));
  }

  /** Sends one call whose answer is a server-sent event stream. */
  stream<E>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<Stream<E>> {
    return new APIPromise(this.#send<Stream<E>>(op, input, options, 'stream'));
  }

  /** Sends one call of a list route; the answer can be walked across pages. */
  list<Item>(op: Operation, input: RequestInput, options: RequestOptions = {}): PagePromise<Item> {
    const page = (cursor: string | undefined) =>
      this.#send<Page<Item>>(op, { ...input, query: { ...input.query, cursor } }, options, 'parse');
    return new PagePromise(page(undefined), page);
  }

  async #send<T>(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream'): Promise<ParsedResponse<T>> {
    const url = this.#url(op, input, options);
    const headers = new Headers(this.#config.defaultHeaders);
    if (op.auth !== 'none') headers.set('authorization', `Bearer ${this.#config.apiKey}`);
    const format: Format = options.format ?? 'json';
    headers.set('accept', mode === 'stream' ? 'text/event-stream' : WIRE_MEDIA_TYPES[format]);
    let body: string | undefined;
    if (input.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(input.body);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
    const fetchFn = this.#config.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetchFn(url, { method: op.method, headers, body, signal: options.signal ?? null });
    } catch (cause) {
      throw new OzConnectionError('The request failed before an answer came.', { cause });
    }
    if (!response.ok) throw await errorOf(response);
    if (mode === 'stream') {
      return { data: new Stream<T>(response, op.streaming === 'chat' ? 'chat' : 'events') as T, response };
    }
    const text = await response.text();
    if (format === 'markdown' || format === 'text') return { data: text as T, response };
    if (format === 'yaml') {
      const yaml = await import('js-yaml');
      return { data: yaml.load(text, { schema: yaml.JSON_SCHEMA }) as T, response };
    }
    return { data: (text === '' ? undefined : JSON.parse(text)) as T, response };
  }

  #url(op: Operation, input: RequestInput, options: RequestOptions): string {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined || value === '') throw new OzError(`Missing path parameter "${name}" of ${op.id}.`);
      return op.slashParams?.includes(name)
        ? value.split('/').map(encodeURIComponent).join('/')
        : encodeURIComponent(value);
    });
    const url = new URL(this.#config.baseURL.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(input.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    if (op.wire && options.format) url.searchParams.set('format', options.format);
    return url.toString();
  }
}

function isStreamBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

async function errorOf(response: Response): Promise<OzAPIError> {
  const text = await response.text().catch(() => '');
  let error: ErrorBody | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: ErrorBody };
    error = parsed.error;
  } catch {
    error = undefined;
  }
  const code = response.headers.get('x-error-code') ?? error?.code ?? `http_${response.status}`;
  return new OzAPIError(response.status, code, error?.message ?? (text || response.statusText), response.headers, error);
}
