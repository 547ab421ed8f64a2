import type { Answer, Call, CallPort, CallSettings, Sent } from './shared/call.js';
import type { Operation, RequestInput } from './shared/operation.js';
import { exchange } from './rawExchange.js';
import { nodeUserAgent } from './shared/runtime.js';
import { abortError, type OzError } from './errors/errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './errors/responseTooLargeError.js';
// The steps of a call, in the order its methods run them (src/core/README.md): one folder of src/core each.
// 1. Options resolved
import { hasOwnSettings, settingsOver } from './options/callSettings.js';
import { Credentials, type ApiKeySource } from './shared/credentials.js';
import { providerKey } from './options/providerKey.js';
import type { AuthHeader, FetchLike, FetchOptions, Format, QueryParams, RequestOptions } from './shared/requestOptions.js';
import { UsageProblem, usageError } from './shared/usageProblem.js';
// 2. Request built
import { setAuth } from './request/auth.js';
import { encodeJsonBody, encodeYamlBody } from './request/encodeRequestBody.js';
import { setHeader, type HeaderRecord } from './shared/headerValue.js';
import { encodedPathParameter } from './request/pathSegment.js';
import { setQueryValue } from './request/queryValue.js';
import { newTraceId } from './request/traceId.js';
import { WIRE_MEDIA_TYPES } from './shared/wire.js';
import { warnDeprecatedUse, warnDeprecationHeaders } from './telemetry/deprecation.js';
// 3. Span
import { tracedAnswer } from './telemetry/traceSpan.js';
import { registeredTracing } from './telemetry/registeredTracing.js';
// 4. Attempt
import { AttemptSignal } from './shared/attemptSignal.js';
import { boundBody } from './attempt/boundBody.js';
import { failedAttemptError } from './attempt/callErrors.js';
import { checkedMiddleware, type Middleware } from './shared/middleware.js';
import { throughMiddleware } from './middleware/runMiddleware.js';
import { followRedirects } from './redirect/followRedirects.js';
import { logAnswer, logAttempt } from './telemetry/debugLines.js';
import { logOf, type Logger, type LogLevel } from './shared/logger.js';
// 5. Retry decision
import { retryLoop, type AttemptOutcome } from './retry/retryAttempts.js';
import type { BackoffSchedule, RetryOptions } from './shared/retryOptions.js';
import { DEFAULT_RETRY_POLICY } from './retry/retryPolicy.js';
// 6. Lost-answer recovery
import { recoverCall } from './recovery/recoverLostAnswer.js';
// 7. Answer decoded by its wire
import { isServiceJson, jsonBody } from './shared/serviceJson.js';
import { parsedAnswer } from './answer/parsedAnswer.js';
import { decodeBody } from './shared/responseBody.js';
import { readStream } from './answer/readStream.js';
// 8. Validation
import type { AnswerValidatorLoader, ValidateMode } from './shared/responseValidation.js';
// 9. The caller's promise
import { APIPromise, bodyHandedOver, type ParsedResponse } from './result/apiPromise.js';

/** Retries after the first attempt, by default. */
export const DEFAULT_MAX_RETRIES = 2;

/** Milliseconds per attempt, by default (10 minutes). */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** What a transport is built from: the client's resolved options. */
export interface TransportConfig {
  baseURL: string;
  /**
   * `GET /v1/executions/{id}` as the generated operations table describes it: where `wait()` and the recovery of
   * a lost answer read a run. Given by the layer above (the core reads nothing of openapi.json itself).
   */
  executionRecord: Operation;
  /** The key, or a function that gives it (asked for every call, and once more after a 401). */
  apiKey: ApiKeySource;
  /** Middleware run on every attempt of every call (a call's own run inside them). */
  middleware?: readonly Middleware[] | undefined;
  /** Backoff, `Retry-After` bound, `shouldRetry`, `onRetry` (over `backoff`). */
  retry?: RetryOptions | undefined;
  fetch?: FetchLike | undefined;
  fetchOptions?: FetchOptions | undefined;
  defaultHeaders?: Record<string, string> | undefined;
  defaultQuery?: QueryParams | undefined;
  maxRetries?: number | undefined;
  timeout?: number | undefined;
  authHeader?: AuthHeader | undefined;
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
  /** The backoff without `Retry-After` (default 0.5 s doubling to 8 s); tests shrink it. */
  backoff?: BackoffSchedule | undefined;
  /**
   * The first poll interval of a lost answer's execution when its record suggests none (default 500 ms, growing
   * 1.5 times per poll to 5 s, as `wait()` does).
   */
  pollIntervalMs?: number | undefined;
  /** Milliseconds a stream may wait without an event before it is closed (default 300000, 5 minutes). */
  idleTimeout?: number | undefined;
  /** Checks answers against openapi.json (default `off`); a call's `validate` overrides it. */
  validate?: ValidateMode | undefined;
  /** Loads the generated answer validators, on the first call made with validation on (given by the layer above). */
  loadValidators: AnswerValidatorLoader;
  /** Bytes one stream event may take (default 16 MiB). */
  maxEventBytes?: number | undefined;
  /** Milliseconds a whole stream may last (default: no limit). */
  streamTimeout?: number | undefined;
  /** Bytes of one answer's body read at most, after decompression (default 64 MiB); a call's option overrides it. */
  maxResponseBytes?: number | undefined;
}



/**
 * Sends the calls of the generated resources: URL, auth, body, wire, retries, idempotency, typed errors.
 *
 * Retries: connection errors, attempt timeouts, 408, 429 and 500+ (never 409, 424 or another 4xx), up to
 * `maxRetries` times, waiting `Retry-After` (seconds, HTTP date, or `retry-after-ms`) when it is at most 60 s,
 * else an exponential backoff with jitter; an answer asking for more than 60 s is not retried. Streams are
 * retried only before their first byte.
 */
export class Transport implements CallPort {
  readonly #config: TransportConfig;
  /** What the steps of a call read of the config (see {@link CallPort}): never the key. */
  readonly config: CallPort['config'];
  readonly #credentials: Credentials;
  readonly #middleware: readonly Middleware[];
  // The client's settings, made on its first call.
  #settings: CallSettings | undefined;
  // Shared with the transports of clients derived by withOptions().
  readonly #shared: { calls: number };

  /**
   * @param parent - The transport a client's `withOptions()` derives this one from (`config` is then a whole config:
   *   the client merges its options): both share the key provider and the keys it gave (when `config.apiKey` is the
   *   same key or function) and the call count.
   */
  constructor(config: TransportConfig, parent?: Transport) {
    this.#config = config;
    this.config = { executionRecord: config.executionRecord, pollIntervalMs: config.pollIntervalMs, loadValidators: config.loadValidators };
    this.#credentials = parent !== undefined && parent.#credentials.source === config.apiKey ? parent.#credentials : new Credentials(config.apiKey);
    this.#middleware = config.middleware === undefined ? NO_MIDDLEWARE : checkedMiddleware(config.middleware, 'middleware');
    this.#shared = parent === undefined ? { calls: 0 } : parent.#shared;
  }

  /**
   * The client's settings, made on its first call: its `retry`, `validate` and stream bounds are checked then
   * (through `options/callSettings.ts`, only for a client that gives any of them).
   */
  async #clientSettings(): Promise<CallSettings> {
    const config = this.#config;
    const backoff = config.backoff;
    const defaults: CallSettings = {
      credentials: this.#credentials,
      baseURL: config.baseURL,
      authHeader: config.authHeader ?? 'bearer',
      middleware: this.#middleware,
      retry: backoff === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, ...backoff },
      logging: { logger: config.logger ?? console, level: config.logLevel ?? 'warn', secrets: [this.#credentials.secrets] },
      validate: 'off',
      fetch: config.fetch ?? globalFetch,
      fetchOptions: config.fetchOptions,
    };
    const own = { retry: config.retry, validate: config.validate, idleTimeout: config.idleTimeout, maxEventBytes: config.maxEventBytes, streamTimeout: config.streamTimeout };
    return (this.#settings = hasOwnSettings(own) ? await settingsOver(defaults, own, '') : defaults);
  }

  /** Sends one call and parses its answer on the chosen wire (a `stream: true` body answers a `Stream`). */
  request<T, E = OzError>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<T, E> {
    const streamed = (op.streaming === 'optional' || op.streaming === 'chat') && isStreamBody(input.body);
    return new APIPromise<T, E>((handoff) => this.call<T>(op, input, options, streamed ? 'stream' : 'parse', handoff));
  }

  /** Sends one call whose answer is a server-sent event stream. */
  stream<S, E = OzError>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<S, E> {
    return new APIPromise<S, E>((handoff) => this.call<S>(op, input, options, 'stream', handoff));
  }

  /**
   * Sends one call and answers its parsed answer with the raw `Response` (what `request()` wraps in an
   * `APIPromise`; pagination reads each page through it). `handoff` is the promise whose `asResponse()` may ask
   * for the body unread.
   */
  async call<T>(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream', handoff?: object): Promise<ParsedResponse<T>> {
    const prepared = await this.prepare(op, input, options, mode, handoff);
    const tracing = registeredTracing();
    // Most calls: no tracer, so no span to run the call inside (nor its two closures).
    if (tracing === undefined) return (await this.answer(prepared)) as ParsedResponse<T>;
    return (await tracedAnswer(this, prepared, tracing)) as ParsedResponse<T>;
  }

  /**
   * Sends a request built elsewhere (the raw client's, from openapi-fetch: `rawCalls.ts` reads it) as one call of
   * `op` to `url`: `body` its bytes as given, `headers` over the call's own (but the credential headers), with the
   * client's key and headers, retries, trace id, span and typed errors (a non-2xx answer throws). Answers the 2xx
   * answer, its body read, or left open in `stream` mode (the span then ends at the headers: the body is the
   * caller's to read). A lost answer found by a retry throws the `DuplicateExecutionIdError`.
   */
  async exchange(op: Operation, url: string, body: string | undefined, headers: Headers, options: RequestOptions, mode: 'parse' | 'stream'): Promise<{ response: Response; text: string }> {
    return await exchange(this, op, url, body, headers, options, mode);
  }

  /** Sends a prepared call and parses its answer (a lost answer recovered from its execution). */
  async answer(call: Call): Promise<ParsedResponse<unknown>> {
    const sent = await this.send(call);
    if (sent.kind === 'lost') return await recoverCall(this, call, sent.conflict);
    if (sent.answer.unread) return { data: undefined, response: sent.answer.response, unread: true };
    return await this.#parse(call, sent.answer);
  }

  /** A call resolved from its operation, input and options; a mistake of the caller's is its `OzUsageError`. */
  async prepare(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream', handoff?: object): Promise<Call> {
    try {
      return await this.#resolve(op, input, options, mode, handoff);
    } catch (error) {
      // A `UsageProblem` found on the way is worded as the caller's `OzUsageError` here.
      throw error instanceof UsageProblem ? usageError(error) : error;
    }
  }

  async #resolve(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream', handoff: object | undefined): Promise<Call> {
    const config = this.#config;
    if (options.signal?.aborted) throw abortError(options.signal);
    const maxRetries = options.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeout = options.timeout ?? config.timeout ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new UsageProblem('maxRetries', maxRetries);
    if (!(timeout > 0)) throw new UsageProblem('timeout', timeout);
    const maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!isByteBound(maxResponseBytes)) throw new UsageProblem('maxResponseBytes', maxResponseBytes);
    // A call that gives none of the options of OWN_SETTINGS (most calls) is made with its client's settings.
    const client = this.#settings ?? (await this.#clientSettings());
    const settings = hasOwnSettings(options) ? await settingsOver(client, options, 'options.') : client;
    const credentials = settings.credentials;
    // A provider is asked for every call (bounded by the attempt's timeout and the signal).
    const apiKey = typeof credentials.source === 'string' ? credentials.source : await providerKey(credentials, options.signal, timeout);
    const wired = op.wire && mode === 'parse';
    const format: Format = wired ? (options.format ?? 'json') : 'json';
    const url = buildURL(settings.baseURL, op, input, wired ? options.format : undefined, config.defaultQuery, options.query);

    let body: string | undefined;
    let contentType: string | undefined;
    if (input.body !== undefined) {
      if (options.bodyFormat === 'yaml') {
        body = await encodeYamlBody(op, input.body);
        contentType = 'text/yaml';
      } else {
        body = encodeJsonBody(op, input.body);
        contentType = 'application/json';
      }
    }

    const headers: HeaderRecord = {};
    const userAgent = nodeUserAgent();
    if (userAgent) headers['user-agent'] = userAgent;
    if (config.defaultHeaders !== undefined) for (const [name, value] of Object.entries(config.defaultHeaders)) setHeader(headers, name, value, 'defaultHeaders');
    const accept =
      mode === 'stream' ? 'text/event-stream' : op.plane === 'mcp' ? 'application/json, text/event-stream' : WIRE_MEDIA_TYPES[format];
    if (mode === 'stream' || headers.accept === undefined) headers.accept = accept;
    if (contentType) headers['content-type'] = contentType;
    setAuth(headers, op, apiKey, settings.authHeader);
    // Every write carries an idempotency key, the same on every attempt: a retry of a lost answer is then a replay.
    if (options.idempotencyKey !== undefined) setHeader(headers, 'x-trace-id', options.idempotencyKey, 'idempotencyKey');
    else if (op.idempotent || op.method !== 'GET') headers['x-trace-id'] = newTraceId();
    if (options.headers !== undefined) {
      for (const [name, value] of Object.entries(options.headers)) setHeader(headers, name, value, 'headers');
    }
    // `format` wins over any Accept the caller set.
    if (wired && options.format) headers.accept = accept;
    if (op.deprecated || op.deprecatedParams) {
      const sent = new Headers(headers);
      warnDeprecatedUse(op, input, sent, logOf(settings.logging));
    }

    const calls = ++this.#shared.calls;
    return {
      settings,
      op,
      mode,
      format,
      url,
      headers,
      body,
      traceId: headers['x-trace-id'],
      asyncRun: isAsyncBody(input.body),
      apiKey,
      handoff,
      maxRetries,
      timeout,
      maxResponseBytes,
      signal: options.signal,
      debug: settings.logging.level === 'debug',
      tag: `[oz ${op.id} #${calls}]`,
      options,
      span: undefined,
    };
  }

  /**
   * Attempts the call until an answer is final: a 2xx, a lost answer to recover, or a typed error thrown. Only a
   * first attempt that is not a 2xx answer goes on to the retry loop (`retry/retryLoop.ts`).
   */
  async send(call: Call): Promise<Sent> {
    let first: AttemptOutcome;
    try {
      const answer = await this.attempt(call, 0);
      if (answer.response.ok) return { kind: 'answer', answer };
      first = { answer };
    } catch (error) {
      first = { error };
    }
    return await retryLoop(this, call, first);
  }

  /**
   * One attempt: a fetch under the attempt's signal (through the middleware, when there is any), and the whole
   * body read (a stream's body, or one `asResponse()` asked for, stays open).
   */
  async attempt(call: Call, attempt: number): Promise<Answer> {
    call.headers['x-oz-retry-count'] = String(attempt);
    const signal = new AttemptSignal(call.signal, call.timeout);
    const started = call.debug ? Date.now() : 0;
    if (call.debug) logAttempt(call, attempt);
    let bound = false;
    try {
      const response = await signal.guard(this.#signalledFetch(call, attempt, signal));
      if (call.debug) logAnswer(call, response, started);
      // The service says the operation is going away: warned once, before the call's promise settles.
      if (response.headers.has('deprecation') || response.headers.has('sunset')) {
        warnDeprecationHeaders(call.op, response.headers, logOf(call.settings.logging));
      }
      if (response.ok && (call.mode === 'stream' || (call.handoff !== undefined && bodyHandedOver(call.handoff)))) {
        bound = true;
        return { response: boundBody(signal, response), text: '', unread: call.mode !== 'stream' };
      }
      return { response, text: await signal.readText(response, call.maxResponseBytes) };
    } catch (cause) {
      // The deadline cannot pass while the error's reader loads: what the attempt came to is decided here.
      signal.stopTimer();
      throw failedAttemptError(call, signal, cause);
    } finally {
      if (!bound) signal.release();
    }
  }

  /**
   * One fetch of an attempt, sent with `redirect: 'manual'`: a redirect (a 3xx, or an opaque one) goes on to the
   * same-origin redirect follower (`attempt/redirect.ts`); most answers are handed back as they came.
   */
  async #fetched(fetch: FetchLike, url: string, init: RequestInit): Promise<Response> {
    const response = await fetch(url, init);
    const status = response.status;
    return (status < 300 || status > 399) && response.type !== 'opaqueredirect' ? response : followRedirects(fetch, url, init, response);
  }

  /** An attempt's fetch given the attempt's signal (through the middleware, when there is any). */
  #signalledFetch(call: Call, attempt: number, signal: AttemptSignal): Promise<Response> {
    const init: RequestInit = { method: call.op.method, headers: call.headers, body: call.body, signal: signal.signal };
    return call.settings.middleware.length === 0
      ? this.#fetched(call.settings.fetch, call.url, { ...call.settings.fetchOptions, ...init, redirect: 'manual' })
      : throughMiddleware(call, attempt, init, signal);
  }

  async #parse(call: Call, { response, text }: Answer): Promise<ParsedResponse<unknown>> {
    if (call.mode === 'stream') return await readStream(this, call, response);
    // A run's pointer (202) and validation need more than decoding: most answers are decoded only.
    if ((response.status === 202 && call.op.idempotent) || call.settings.validate !== 'off') return await parsedAnswer(this, call, response, text);
    return { data: await this.decode(text, response.headers.get('content-type'), call.format), response, text };
  }

  /**
   * A 2xx body on its wire: the service's JSON at once; any other (yaml, markdown, text, an answer sent as
   * server-sent events) through `answer/responseBody.ts`.
   */
  decode(text: string, contentType: string | null, requested: Format): unknown | Promise<unknown> {
    return isServiceJson(contentType) ? jsonBody(text) : decodeBody(text, contentType, requested);
  }

}

const NO_MIDDLEWARE: readonly Middleware[] = [];

// Normalized URLs of calls without a query, by the raw URL they are parsed from (parsing showed as a twentieth of
// a call's client time). Bounded: cleared when full, so paths holding ids cannot grow it without limit.
const URL_CACHE = new Map<string, string>();
const URL_CACHE_SIZE = 256;

const QUERY_SOURCES = ['defaultQuery', 'options.query', "the operation's parameters"] as const;

function buildURL(
  baseURL: string,
  op: Operation,
  input: RequestInput,
  format: Format | undefined,
  defaultQuery: QueryParams | undefined,
  callQuery: QueryParams | undefined,
): string {
  if (input.url === undefined && format === undefined && !hasQuery(input.query) && defaultQuery === undefined && callQuery === undefined) {
    const raw = withoutTrailingSlash(baseURL) + pathOf(op, input);
    let href = URL_CACHE.get(raw);
    if (href === undefined) {
      href = new URL(raw).toString();
      if (URL_CACHE.size >= URL_CACHE_SIZE) URL_CACHE.clear();
      URL_CACHE.set(raw, href);
    }
    return href;
  }
  const url = input.url === undefined ? new URL(withoutTrailingSlash(baseURL) + pathOf(op, input)) : new URL(input.url);
  // The client's defaults, then the call's, then the operation's own parameters (a list's cursor) win.
  const sources = [defaultQuery, callQuery, input.query];
  for (let i = 0; i < sources.length; i++) {
    for (const [name, value] of Object.entries(sources[i] ?? {})) setQueryValue(url.searchParams, name, value, QUERY_SOURCES[i]!);
  }
  if (format) url.searchParams.set('format', format);
  return url.toString();
}

/** The base URL without its trailing slashes (a regex run only when there is one). */
function withoutTrailingSlash(baseURL: string): string {
  return baseURL.endsWith('/') ? baseURL.replace(/\/+$/, '') : baseURL;
}

function hasQuery(query: RequestInput['query']): boolean {
  return query !== undefined && Object.values(query).some((value) => value !== undefined && value !== null);
}

// Each operation's path template split once: literal text at even indexes, parameter names at odd ones.
const TEMPLATES = new WeakMap<Operation, readonly string[]>();

function pathOf(op: Operation, input: RequestInput): string {
  let parts = TEMPLATES.get(op);
  if (parts === undefined) {
    parts = op.path.split(/\{([^}]+)\}/);
    TEMPLATES.set(op, parts);
  }
  let path = parts[0]!;
  let query = '';
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = input.path?.[name];
    if (value === undefined || value === '') throw new UsageProblem('missingPathParameter', op, name, false);
    if (op.slashParams?.includes(name)) {
      // A passed-through path keeps its `/` and may carry a query string: `contacts/42?x=1` sends `?x=1` upstream
      // (the `query` option adds to it) rather than an encoded `%3F` no upstream would read as a query.
      const mark = value.indexOf('?');
      const upstream = mark === -1 ? value : value.slice(0, mark);
      if (upstream === '') throw new UsageProblem('missingPathParameter', op, name, true);
      if (mark !== -1 && value.length > mark + 1) query = value.slice(mark);
      path += encodedPathParameter(op, name, upstream, true) + parts[i + 1]!;
    } else {
      path += encodedPathParameter(op, name, value, false) + parts[i + 1]!;
    }
  }
  return path + query;
}

// Looked up at each call, so a `globalThis.fetch` replaced after the client was made (a test's mock) is used.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** Whether `bytes` is a bound on an answer's body: a whole number of bytes >= 1, or `Infinity`. */
function isByteBound(bytes: number): boolean {
  return bytes === Infinity || (Number.isInteger(bytes) && bytes >= 1);
}

function isStreamBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

function isAsyncBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { async?: unknown }).async === true;
}
