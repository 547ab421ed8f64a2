import type { Answer, Call, CallClient, CallSettings } from './shared/call.js';
import type { Operation, RequestInput } from './shared/operation.js';
import type { ExecutionReader } from './shared/pollTypes.js';
import { abortError, type OzError } from './errors/errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './errors/responseTooLargeError.js';
import { runCall, runRawCall } from './callChain.js';
// Before the chain: the options resolved, then the request built (src/core/README.md).
import { checkOptions } from './options/checkOptions.js';
import { hasOwnSettings, settingsOver } from './options/callSettings.js';
import { warnClientOnlyOptions } from './options/clientOnlyOptions.js';
import { providerKey } from './options/providerKey.js';
import { callRequest } from './request/callRequest.js';
import { Credentials, type ApiKeySource } from './shared/credentials.js';
import { logOf, type Logger, type LogLevel } from './shared/logger.js';
import type { Middleware } from './shared/middleware.js';
import type { AuthHeader, FetchLike, FetchOptions, QueryParams, RequestOptions } from './shared/requestOptions.js';
import type { AnswerValidatorLoader, ValidateMode } from './shared/responseValidation.js';
import type { BackoffSchedule, RetryOptions } from './shared/retryOptions.js';
import { UsageProblem, usageError } from './shared/usageProblem.js';
import { DEFAULT_RETRY_POLICY } from './retry/retryPolicy.js';
import { APIPromise, type ParsedResponse } from './result/apiPromise.js';

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
 * Sends the calls of the generated resources: resolves each call (its options, then its request) and sends it
 * through the steps of `callChain.ts` (span, decoding, lost-answer recovery, retries, the attempt, middleware,
 * redirects, the fetch).
 *
 * Retries: connection errors, attempt timeouts, 408, 429 and 500+ (never 409, 424 or another 4xx), up to
 * `maxRetries` times, waiting `Retry-After` (seconds, HTTP date, or `retry-after-ms`) when it is at most 60 s,
 * else an exponential backoff with jitter; an answer asking for more than 60 s is not retried. Streams are
 * retried only before their first byte.
 */
export class Transport implements ExecutionReader {
  readonly #config: TransportConfig;
  /** What a pointer's `wait()` reads of the transport (see `ExecutionReader`): never the key. */
  readonly config: { readonly executionRecord: Operation };
  readonly #credentials: Credentials;
  readonly #middleware: readonly Middleware[];
  // The client's settings, made on its first call.
  #settings: CallSettings | undefined;
  readonly #client: CallClient;

  /**
   * @param parent - The transport a client's `withOptions()` derives this one from (`config` is then a whole config:
   *   the client merges its options): both share the key provider and the keys it gave (when `config.apiKey` is the
   *   same key or function) and the call count.
   */
  constructor(config: TransportConfig, parent?: Transport) {
    this.#config = config;
    this.config = { executionRecord: config.executionRecord };
    this.#credentials = parent !== undefined && parent.#credentials.source === config.apiKey ? parent.#credentials : new Credentials(config.apiKey);
    // Checked where the client was given it (the option table).
    this.#middleware = config.middleware ?? NO_MIDDLEWARE;
    this.#client = {
      executionRecord: config.executionRecord,
      pollIntervalMs: config.pollIntervalMs,
      loadValidators: config.loadValidators,
      executions: this,
      counter: parent === undefined ? { calls: 0 } : parent.#client.counter,
    };
  }

  /**
   * The client's settings, made on its first call: its `retry`, `validate` and stream bounds applied over the
   * defaults (through `options/callSettings.ts`, only for a client that gives any of them; checked where given).
   */
  async #clientSettings(): Promise<CallSettings> {
    const config = this.#config;
    const backoff = config.backoff;
    const defaults: CallSettings = {
      credentials: this.#credentials,
      baseURL: config.baseURL,
      authHeader: config.authHeader ?? 'bearer',
      defaultHeaders: config.defaultHeaders,
      defaultQuery: config.defaultQuery,
      middleware: this.#middleware,
      retry: backoff === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, ...backoff },
      logging: { logger: config.logger ?? console, level: config.logLevel ?? 'warn', secrets: [this.#credentials.secrets] },
      validate: 'off',
      fetch: config.fetch ?? globalFetch,
      fetchOptions: config.fetchOptions,
    };
    const own = {
      retry: config.retry,
      validate: config.validate,
      idleTimeout: config.idleTimeout,
      maxEventBytes: config.maxEventBytes,
      streamTimeout: config.streamTimeout,
    };
    return (this.#settings = hasOwnSettings(own) ? await settingsOver(defaults, own) : defaults);
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
   * Sends one call through its steps and answers its parsed answer with the raw `Response` (what `request()` wraps
   * in an `APIPromise`; pagination reads each page through it). `handoff` is the promise whose `asResponse()` may
   * ask for the body unread.
   */
  async call<T>(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream', handoff?: object): Promise<ParsedResponse<T>> {
    const answer: Answer = await runCall(await this.prepare(op, input, options, mode, handoff));
    return { data: answer.decoded?.data as T, response: answer.response, text: answer.unread ? undefined : answer.text, unread: answer.unread };
  }

  /**
   * Sends a request built elsewhere (the raw client's, from openapi-fetch: `rawCalls.ts` reads it) as one call of
   * `op` to `url`: `body` its bytes as given, `headers` over the call's own (but the credential headers), with the
   * client's key and headers, retries, trace id, span and typed errors (a non-2xx answer throws), through the raw
   * steps (`callChain.ts`). Answers the 2xx answer, its body read, or left open in `stream` mode (the span then
   * ends at the headers: the body is the caller's to read). A lost answer found by a retry throws the
   * `DuplicateExecutionIdError`.
   */
  async exchange(
    op: Operation,
    url: string,
    body: string | undefined,
    headers: Headers,
    options: RequestOptions,
    mode: 'parse' | 'stream',
  ): Promise<{ response: Response; text: string }> {
    const call = await this.prepare(op, { url }, options, mode);
    headers.forEach((value, name) => {
      if (name !== 'authorization' && name !== 'x-api-key') call.headers[name] = value;
    });
    if (!headers.has('content-type') && body !== undefined) call.headers['content-type'] = 'application/json';
    const { response, text } = await runRawCall({ ...call, body });
    return { response, text };
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
    // Each option the call gives, by its row of the option table (the client's were checked where they were given).
    checkOptions(options, 'call');
    if (options.signal?.aborted) throw abortError(options.signal);
    const maxRetries = options.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeout = options.timeout ?? config.timeout ?? DEFAULT_TIMEOUT_MS;
    const maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    // A call that gives none of the options of OWN_SETTINGS (most calls) is made with its client's settings.
    const client = this.#settings ?? (await this.#clientSettings());
    const settings = hasOwnSettings(options) ? await settingsOver(client, options) : client;
    if (settings !== client) warnClientOnlyOptions(this.#client, options, logOf(settings.logging));
    const credentials = settings.credentials;
    // A provider is asked for every call (bounded by the attempt's timeout and the signal).
    const apiKey = typeof credentials.source === 'string' ? credentials.source : await providerKey(credentials, options.signal, timeout);
    const request = await callRequest(settings, op, input, options, mode, apiKey);
    // Every field of a call written here, in one order (no spread): every call has one shape, which V8 keeps fast.
    return {
      settings,
      client: this.#client,
      op,
      mode,
      format: request.format,
      url: request.url,
      headers: request.headers,
      body: request.body,
      idempotencyKey: request.headers['x-trace-id'],
      asyncRun: isAsyncBody(input.body),
      apiKey,
      handoff,
      maxRetries,
      timeout,
      maxResponseBytes,
      signal: options.signal,
      debug: settings.logging.level === 'debug',
      tag: `[oz ${op.id} #${++this.#client.counter.calls}]`,
      options,
      span: undefined,
      attempt: 0,
      sending: undefined,
    };
  }
}

const NO_MIDDLEWARE: readonly Middleware[] = [];

// Looked up at each call, so a `globalThis.fetch` replaced after the client was made (a test's mock) is used.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

function isStreamBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

function isAsyncBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { async?: unknown }).async === true;
}
