import { abortableSleep, abortError } from './abortableSleep.js';
import { APIPromise, type ParsedResponse } from './apiPromise.js';
import { parsePointerLines } from './asyncPointer.js';
import { AttemptSignal } from './attemptSignal.js';
import { authHeaderFor, isLegacyKeyOffPlane } from './auth.js';
import { checkedBaseURL } from './baseURL.js';
import { rememberAnswer } from './callResult.js';
import {
  errorFromText,
  LegacyKeyError,
  OzConnectionError,
  OzTimeoutError,
  OzUsageError,
  type OzAPIError,
  type OzError,
} from './errors.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait, type ExecutionPoll } from './executionPoller.js';
import {
  pointerOfRecord,
  recordAsEvents,
  recordFailure,
  resultOnWire,
  type ExecutionRecordAnswer,
} from './executionRecovery.js';
import { filteredLogger, redactHeaders, scrubSecrets, type Logger, type LogLevel } from './logger.js';
import type { Operation, RequestInput } from './operation.js';
import { encodedPathParameter } from './pathSegment.js';
import { setHeader } from './headerValue.js';
import { warnDeprecatedUse, warnDeprecationHeaders } from './deprecation.js';
import { fetchWithinOrigin, OzRedirectError } from './redirect.js';
import { PagePromise, type PageBody } from './pagination.js';
import type { AuthHeader, FetchLike, FetchOptions, Format, QueryParams, RequestOptions } from './requestOptions.js';
import { decodeBody } from './responseBody.js';
import { AnswerChecker, isValidateMode, type AnswerValidatorLoader, type ValidateMode, type ValidationReport } from './responseValidation.js';
import { OzResponseValidationError } from './responseValidationError.js';
import { DEFAULT_BACKOFF, backoffDelay, isRetryableStatus, retryDelay, RETRY_AFTER_CAP_MS, type BackoffSchedule } from './retryPolicy.js';
import { nodeUserAgent } from './runtime.js';
import { checkedStreamBounds, DEFAULT_IDLE_TIMEOUT_MS, Stream, type StreamOptions } from './stream.js';
import { OzStreamInterruptedError } from './streamErrors.js';
import type { StreamMode } from './streamProtocol.js';
import { newTraceId } from './traceId.js';
import { copyTraceContext, registeredTracing, startCallSpan, type CallSpan, type OtelGlobal } from './tracing.js';
import { WIRE_MEDIA_TYPES, wireOfContentType } from './wire.js';
import { stringifyYaml } from './yaml.js';

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
  /** The key, or a function the first call asks for it (a key stored in a profile, read on first use). */
  apiKey: string | (() => Promise<string>);
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
  loadValidators?: AnswerValidatorLoader | undefined;
  /** Bytes one stream event may take (default 16 MiB). */
  maxEventBytes?: number | undefined;
  /** Milliseconds a whole stream may last (default: no limit). */
  streamTimeout?: number | undefined;
}

/** One call, resolved once: the same URL, headers and body bytes go out on every attempt. */
interface Call {
  readonly op: Operation;
  readonly mode: 'parse' | 'stream';
  readonly format: Format;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly traceId: string | undefined;
  readonly asyncRun: boolean;
  readonly apiKey: string;
  readonly fetch: FetchLike;
  /** `fetchOptions` of the client and the call, merged; undefined when neither has any. */
  readonly fetchOptions: FetchOptions | undefined;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly maxEventBytes: number;
  readonly streamTimeout: number;
  readonly signal: AbortSignal | undefined;
  readonly log: Logger;
  /** Whether debug lines are written: their headers are only gathered then. */
  readonly debug: boolean;
  readonly tag: string;
  readonly options: RequestOptions;
  /** Whether (and how) the answer is checked against openapi.json. */
  readonly validate: ValidateMode;
  /**
   * The call's OpenTelemetry span, when an application registered a tracer provider (a call made for the caller;
   * the polls that recover a lost answer belong to their call's span).
   */
  readonly span: CallSpan | undefined;
}

/**
 * The call with its span started (and its `traceparent` set), when a tracer provider is registered (`api`, from
 * `registeredTracing()`: a call without one waits for nothing).
 */
async function withSpan(call: Call, api: OtelGlobal | undefined): Promise<Call> {
  if (api === undefined) return call;
  const span = await startCallSpan(api, { operationId: call.op.id, method: call.op.method, url: call.url, traceId: call.traceId, headers: call.headers });
  return { ...call, span };
}

/** An answer with a 2xx status (its body read, or bound to the caller's signal for a stream). */
interface Answer {
  readonly response: Response;
  readonly text: string;
}

type Sent = { kind: 'answer'; answer: Answer } | { kind: 'lost'; conflict: OzAPIError };

/**
 * Sends the calls of the generated resources: URL, auth, body, wire, retries, idempotency, typed errors.
 *
 * Retries: connection errors, attempt timeouts, 408, 429 and 500+ (never 409, 424 or another 4xx), up to
 * `maxRetries` times, waiting `Retry-After` (seconds, HTTP date, or `retry-after-ms`) when it is at most 60 s,
 * else an exponential backoff with jitter; an answer asking for more than 60 s is not retried. Streams are
 * retried only before their first byte.
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #log: Logger;
  readonly #checker: AnswerChecker | undefined;
  #calls = 0;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#checker = config.loadValidators === undefined ? undefined : new AnswerChecker(config.loadValidators);
    this.#log = filteredLogger(config.logger ?? console, config.logLevel ?? 'warn', typeof config.apiKey === 'string' ? [config.apiKey] : []);
  }

  /** `GET /v1/executions/{id}`, where executions are polled. */
  get executionRecord(): Operation {
    return this.#config.executionRecord;
  }

  /** Sends one call and parses its answer on the chosen wire (a `stream: true` body answers a `Stream`). */
  request<T, E = OzError>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<T, E> {
    const streamed = (op.streaming === 'optional' || op.streaming === 'chat') && isStreamBody(input.body);
    return new APIPromise(this.#run<T>(op, input, options, streamed ? 'stream' : 'parse'));
  }

  /** Sends one call whose answer is a server-sent event stream. */
  stream<Event, E = OzError>(op: Operation, input: RequestInput, options: RequestOptions = {}): APIPromise<Stream<Event>, E> {
    return new APIPromise(this.#run<Stream<Event>>(op, input, options, 'stream'));
  }

  /** Sends one call of a list route; the answer can be walked across pages. */
  list<Item, E = OzError>(op: Operation, input: RequestInput, options: RequestOptions = {}): PagePromise<Item, E> {
    // The first page keeps the caller's own `cursor` (a stored one); later pages send the answer's next_cursor.
    const page = (cursor: string | undefined) =>
      this.#run<PageBody<Item>>(op, cursor === undefined ? input : { ...input, query: { ...input.query, cursor } }, options, 'parse');
    return new PagePromise(page(undefined), page, options.signal);
  }

  async #run<T>(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream'): Promise<ParsedResponse<T>> {
    const prepared = await this.#prepare(op, input, options, mode);
    const tracing = registeredTracing();
    const call = tracing === undefined ? prepared : await withSpan(prepared, tracing);
    // A stream's span ends with the stream (see streamOptions).
    return (await this.#traced(call, () => this.#answer(call), (parsed) => !(parsed.data instanceof Stream))) as ParsedResponse<T>;
  }

  /**
   * Sends a request built elsewhere (the raw client's, from openapi-fetch) as one call of `op`, with the client's
   * key and headers, retries, trace id, span and typed errors (a non-2xx answer throws). Answers the 2xx answer as
   * a `Response`; `Accept: text/event-stream` (or `stream: true` on a streaming route) leaves its body open (its
   * span ends at the headers: the body is the caller's to read). A
   * lost answer found by a retry throws the `DuplicateExecutionIdError`: read the run with `executions.get()`.
   */
  async sendRaw(op: Operation, request: Request, options: RequestOptions = {}): Promise<Response> {
    const body = request.body === null ? undefined : await request.text();
    const accept = request.headers.get('accept');
    const contentType = request.headers.get('content-type');
    const streamed =
      op.streaming === 'always' ||
      (accept !== null && accept.includes('text/event-stream')) ||
      ((op.streaming === 'optional' || op.streaming === 'chat') && body !== undefined && /"stream"\s*:\s*true/.test(body));
    const call = await withSpan(await this.#prepare(op, { url: request.url }, { signal: request.signal, ...options }, streamed ? 'stream' : 'parse'), registeredTracing());
    request.headers.forEach((value, name) => {
      if (name !== 'authorization' && name !== 'x-api-key') call.headers.set(name, value);
    });
    if (contentType === null && body !== undefined) call.headers.set('content-type', 'application/json');
    const sent = { ...call, body };
    return await this.#traced(
      sent,
      async () => {
        const answer = await this.#send(sent);
        if (answer.kind === 'lost') throw this.#final(sent, answer.conflict);
        const { response, text } = answer.answer;
        if (streamed) return { response };
        const empty = response.status === 204 || response.status === 205 || response.status === 304;
        return { response: new Response(empty ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers }) };
      },
      () => true,
    ).then(({ response }) => response);
  }

  /** Runs a call's work inside its span (when a tracer is registered): the answer's ids on it, ended unless `ends` says the answer ends it later. */
  async #traced<R extends { response: Response }>(call: Call, work: () => Promise<R>, ends: (answer: R) => boolean): Promise<R> {
    const span = call.span;
    if (span === undefined) return await work();
    try {
      const answer = await work();
      span.answered(answer.response);
      if (ends(answer)) span.end();
      return answer;
    } catch (error) {
      span.end(error);
      throw error;
    }
  }

  async #answer(call: Call): Promise<ParsedResponse<unknown>> {
    const sent = await this.#send(call);
    if (sent.kind === 'lost') return await this.#recover(call, sent.conflict);
    return await this.#parse(call, sent.answer);
  }

  async #prepare(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream'): Promise<Call> {
    const config = this.#config;
    const clientKey = typeof config.apiKey === 'string' ? config.apiKey : undefined;
    const apiKey = options.apiKey ?? clientKey ?? (await (config.apiKey as () => Promise<string>)());
    const level = options.logLevel ?? config.logLevel ?? 'warn';
    // The client's own logger serves every call that brings no logger, level or key of its own.
    const log =
      options.logger === undefined && options.logLevel === undefined && options.apiKey === undefined && clientKey !== undefined
        ? this.#log
        : filteredLogger(options.logger ?? config.logger ?? console, level, clientKey === undefined ? [apiKey] : [apiKey, clientKey]);
    if (options.signal?.aborted) throw abortError(options.signal);
    const wired = op.wire && mode === 'parse';
    const format: Format = wired ? (options.format ?? 'json') : 'json';
    const baseURL = options.baseURL === undefined ? config.baseURL : checkedBaseURL(options.baseURL);
    const url = buildURL(baseURL, op, input, wired ? options.format : undefined, config.defaultQuery, options.query);

    let body: string | undefined;
    let contentType: string | undefined;
    if (input.body !== undefined) {
      if (options.bodyFormat === 'yaml') {
        if (!op.yamlBody) throw new OzUsageError(`${op.id} (${op.method} ${op.path}) does not take a YAML body; send it as JSON.`);
        body = await stringifyYaml(input.body);
        contentType = 'text/yaml';
      } else {
        body = JSON.stringify(input.body);
        contentType = 'application/json';
      }
    }

    const headers = new Headers();
    const userAgent = nodeUserAgent();
    if (userAgent) headers.set('user-agent', userAgent);
    for (const [name, value] of Object.entries(config.defaultHeaders ?? {})) setHeader(headers, name, value, 'defaultHeaders');
    const accept =
      mode === 'stream' ? 'text/event-stream' : op.plane === 'mcp' ? 'application/json, text/event-stream' : WIRE_MEDIA_TYPES[format];
    if (mode === 'stream' || !headers.has('accept')) headers.set('accept', accept);
    if (contentType) headers.set('content-type', contentType);
    const auth = authHeaderFor(op, apiKey, options.authHeader ?? config.authHeader ?? 'bearer');
    if (auth) {
      headers.delete(auth[0] === 'authorization' ? 'x-api-key' : 'authorization');
      setHeader(headers, auth[0], auth[1], 'apiKey');
    }
    // Every write carries an idempotency key, the same on every attempt: a retry of a lost answer is then a replay.
    const traceId = op.idempotent || op.method !== 'GET' ? (options.idempotencyKey ?? newTraceId()) : options.idempotencyKey;
    if (traceId !== undefined) setHeader(headers, 'x-trace-id', traceId, 'idempotencyKey');
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      setHeader(headers, name, value, 'headers');
    }
    // `format` wins over any Accept the caller set.
    if (wired && options.format) headers.set('accept', accept);
    if (op.deprecated || op.deprecatedParams) warnDeprecatedUse(op, input, headers, log);

    const maxRetries = options.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeout = options.timeout ?? config.timeout ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new OzUsageError(`maxRetries must be a whole number >= 0, not ${maxRetries}.`);
    if (!(timeout > 0)) throw new OzUsageError(`timeout must be a number of milliseconds > 0, not ${timeout}.`);
    const idleTimeout = options.idleTimeout ?? config.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (!(idleTimeout > 0)) throw new OzUsageError(`idleTimeout must be a number of milliseconds > 0 (or Infinity), not ${idleTimeout}.`);
    const validate = options.validate ?? config.validate ?? 'off';
    if (!isValidateMode(validate)) throw new OzUsageError(`validate must be 'off', 'warn' or 'strict', not ${JSON.stringify(validate)}.`);
    const { maxEventBytes, streamTimeout } = checkedStreamBounds({
      maxEventBytes: options.maxEventBytes ?? config.maxEventBytes,
      streamTimeout: options.streamTimeout ?? config.streamTimeout,
    });
    this.#calls += 1;
    const sentTraceId = headers.get('x-trace-id') ?? undefined;
    const fetchOptions = config.fetchOptions === undefined ? options.fetchOptions : options.fetchOptions === undefined ? config.fetchOptions : { ...config.fetchOptions, ...options.fetchOptions };
    return {
      op,
      mode,
      format,
      url,
      headers,
      body,
      traceId: sentTraceId,
      asyncRun: isAsyncBody(input.body),
      apiKey,
      fetch: options.fetch ?? config.fetch ?? globalFetch,
      fetchOptions,
      maxRetries,
      timeout,
      idleTimeout,
      maxEventBytes,
      streamTimeout,
      signal: options.signal,
      log,
      debug: level === 'debug',
      tag: `[oz ${op.id} #${this.#calls}]`,
      options,
      validate: this.#checker === undefined ? 'off' : validate,
      span: undefined,
    };
  }

  /** Attempts the call until an answer is final: a 2xx, a lost answer to recover, or a typed error thrown. */
  async #send(call: Call): Promise<Sent> {
    const backoff = this.#config.backoff ?? DEFAULT_BACKOFF;
    for (let attempt = 0; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.#attempt(call, attempt);
      } catch (error) {
        if (!(error instanceof OzConnectionError) || attempt >= call.maxRetries) throw this.#final(call, error);
        const wait = backoffDelay(attempt, backoff);
        call.span?.retry(attempt, error.name, wait);
        call.log.info(`${call.tag} ${error.message} Retrying in ${Math.round(wait)} ms (${call.maxRetries - attempt} retries left).`);
        await abortableSleep(wait, call.signal);
        continue;
      }
      const { response, text } = answer;
      if (response.ok) return { kind: 'answer', answer };

      const error = this.#withKeyHint(call, await errorFromText(response.status, response.headers, scrubSecrets(text, [call.apiKey]), response.statusText));
      rememberAnswer(error, response);
      if (attempt > 0 && call.op.idempotent && call.traceId !== undefined && error.code === 'duplicate_execution_id') {
        return { kind: 'lost', conflict: error };
      }
      if (isRetryableStatus(response.status) && attempt < call.maxRetries) {
        const wait = retryDelay(response.headers, attempt, backoff);
        if (wait !== undefined) {
          call.span?.retry(attempt, `${response.status} ${error.code}`, wait);
          call.log.info(`${call.tag} ${response.status} ${error.code}. Retrying in ${Math.round(wait)} ms (${call.maxRetries - attempt} retries left).`);
          await abortableSleep(wait, call.signal);
          continue;
        }
        call.log.warn(`${call.tag} ${response.status} asks to wait more than ${RETRY_AFTER_CAP_MS / 1000} s (Retry-After); not retrying.`);
      }
      throw this.#final(call, error);
    }
  }

  /** One attempt: a fetch under the attempt's signal, and the whole body read (a stream's body stays open). */
  async #attempt(call: Call, attempt: number): Promise<Answer> {
    const signal = new AttemptSignal(call.signal, call.timeout);
    const started = Date.now();
    if (call.debug) {
      call.log.debug(`${call.tag} ${call.op.method} ${call.url} (attempt ${attempt + 1} of ${call.maxRetries + 1})`, {
        headers: redactHeaders(call.headers),
      });
    }
    let bound = false;
    try {
      const init: RequestInit = { method: call.op.method, headers: call.headers, body: call.body, signal: signal.signal };
      const response = await fetchWithinOrigin(call.fetch, call.url, call.fetchOptions === undefined ? init : { ...call.fetchOptions, ...init });
      if (call.debug) call.log.debug(`${call.tag} ${response.status} after ${Date.now() - started} ms`, { headers: redactHeaders(response.headers) });
      warnDeprecationHeaders(call.op, response.headers, call.log);
      if (call.mode === 'stream' && response.ok) {
        bound = true;
        return { response: signal.bindBody(response), text: '' };
      }
      return { response, text: await response.text() };
    } catch (cause) {
      throw cause instanceof OzRedirectError ? cause : signal.errorFor(cause);
    } finally {
      if (!bound) signal.release();
    }
  }

  /** A typed error about to be thrown: logged, and scrubbed of the key. */
  #final(call: Call, error: unknown): unknown {
    if (error instanceof Error) {
      error.message = scrubSecrets(error.message, [call.apiKey]);
      if (error.stack) error.stack = scrubSecrets(error.stack, [call.apiKey]);
      call.log.info(`${call.tag} ${call.op.method} ${call.op.path} failed: ${error.message}`);
    }
    return error;
  }

  /** A 401 to a legacy key outside its own plane says why (see {@link LegacyKeyError}). */
  #withKeyHint(call: Call, error: OzAPIError): OzAPIError {
    if (error.status !== 401 || call.op.auth === 'none') return error;
    const keyPlane = isLegacyKeyOffPlane(call.apiKey, call.op.plane);
    return keyPlane ? new LegacyKeyError(error, keyPlane, call.op.plane) : error;
  }

  async #parse(call: Call, { response, text }: Answer): Promise<ParsedResponse<unknown>> {
    if (call.mode === 'stream') {
      const options = streamOptions(call, call.op.streaming === 'chat' ? 'chat' : 'events');
      if (call.validate !== 'off') {
        const validators = await this.#checker!.validators();
        const report = validationReport(call, response);
        options.checkItem = (item) => this.#checker!.check(validators, call.validate, call.op.id, `${call.op.id}_event`, item, report);
      }
      return { data: new Stream(response, options), response };
    }
    const contentType = response.headers.get('content-type');
    const wire = wireOfContentType(contentType) ?? call.format;
    if (response.status === 202 && call.op.idempotent && (wire === 'markdown' || wire === 'text')) {
      return { data: withPointerWait(parsePointerLines(text), this, call.options), response };
    }
    const data = call.validate === 'off' ? await decodeBody(text, contentType, call.format) : await this.#checkedBody(call, response, text, wire);
    return { data: response.status === 202 && call.op.idempotent ? withPointerWait(data, this, call.options) : data, response };
  }

  /**
   * A body read with validation on: JSON and YAML answers are checked against the operation's schema (markdown
   * and text answers are strings, not checked); under `strict` a body that does not parse is a mismatch at `$`.
   */
  async #checkedBody(call: Call, response: Response, text: string, wire: Format | undefined): Promise<unknown> {
    const report = validationReport(call, response);
    let data: unknown;
    try {
      data = await decodeBody(text, response.headers.get('content-type'), call.format);
    } catch (cause) {
      const problem = cause instanceof Error ? cause.message : String(cause);
      this.#checker!.fail(call.validate, new OzResponseValidationError({ operationId: call.op.id, path: '$', value: text, requestId: report.requestId, problem }, { cause }), report);
      throw cause;
    }
    if (wire === 'json' || wire === 'yaml') {
      const validators = await this.#checker!.validators();
      this.#checker!.check(validators, call.validate, call.op.id, `${call.op.id}_${response.status}`, data, report);
    }
    return data;
  }

  /**
   * A retry answered 409 `duplicate_execution_id`: the first attempt did run and only its answer was lost. Reads
   * that execution (`GET /v1/executions/{id}`) through the execution poller, for at most one attempt's `timeout`,
   * and answers its result on the caller's wire (as server-sent events for a stream call).
   */
  async #recover(call: Call, conflict: OzAPIError): Promise<ParsedResponse<unknown>> {
    const id = call.traceId!;
    call.log.warn(`${call.tag} The answer was lost and the retry found execution ${id} already started; reading its result.`);
    const deadline = Date.now() + call.timeout;
    const pollOptions: RequestOptions = { ...call.options, format: 'json', bodyFormat: undefined, idempotencyKey: undefined };
    const read = async (): Promise<ExecutionPoll> => {
      const poll = await this.#prepare(this.#config.executionRecord, { path: { id } }, pollOptions, 'parse');
      copyTraceContext(call.headers, poll.headers);
      const sent = await this.#send(poll);
      if (sent.kind === 'lost') throw conflict; // not reachable: the record route is not idempotent
      const { response, text } = sent.answer;
      const record = (await decodeBody(text, response.headers.get('content-type'), 'json')) as ExecutionRecordAnswer;
      return { record, response, requestId: response.headers.get('x-request-id') };
    };
    if (call.asyncRun) {
      const { record, response } = await read();
      return { data: withPointerWait(pointerOfRecord(record), this, call.options), response };
    }
    const beforeWait = (wait: number, { record }: ExecutionPoll) => {
      if (Date.now() + wait <= deadline) return;
      throw this.#final(
        call,
        new OzTimeoutError(`Execution ${id} is still ${record.status} after ${call.timeout} ms; read it later with client.executions.get().`, {
          cause: conflict,
        }),
      );
    };
    const schedule = { ...DEFAULT_POLL_SCHEDULE, interval: this.#config.pollIntervalMs ?? DEFAULT_POLL_SCHEDULE.interval };
    const { record, response, requestId } = await pollExecution(read, schedule, { signal: call.signal, beforeWait });
    if (call.mode === 'stream') {
      if (record.status === 'cancelled') throw this.#final(call, recordFailure(record, requestId));
      const events = new Response(recordAsEvents(record, requestId), {
        headers: { 'content-type': 'text/event-stream', 'x-execution-id': id, ...(requestId ? { 'x-request-id': requestId } : {}) },
      });
      return { data: new Stream(events, streamOptions(call, 'events')), response: events };
    }
    const failure = recordFailure(record, requestId);
    if (failure) throw this.#final(call, failure);
    return { data: resultOnWire(record, call.format, requestId), response };
  }
}

// Normalized URLs of calls without a query, by the raw URL they are parsed from (parsing showed as a twentieth of
// a call's client time). Bounded: cleared when full, so paths holding ids cannot grow it without limit.
const URL_CACHE = new Map<string, string>();
const URL_CACHE_SIZE = 256;

function buildURL(
  baseURL: string,
  op: Operation,
  input: RequestInput,
  format: Format | undefined,
  defaultQuery: QueryParams | undefined,
  callQuery: QueryParams | undefined,
): string {
  if (input.url === undefined && format === undefined && !hasQuery(input.query) && defaultQuery === undefined && callQuery === undefined) {
    const raw = baseURL.replace(/\/+$/, '') + pathOf(op, input);
    let href = URL_CACHE.get(raw);
    if (href === undefined) {
      href = new URL(raw).toString();
      if (URL_CACHE.size >= URL_CACHE_SIZE) URL_CACHE.clear();
      URL_CACHE.set(raw, href);
    }
    return href;
  }
  const url = input.url === undefined ? new URL(baseURL.replace(/\/+$/, '') + pathOf(op, input)) : new URL(input.url);
  // The client's defaults, then the call's, then the operation's own parameters (a list's cursor) win.
  for (const query of [defaultQuery, callQuery, input.query]) {
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
  }
  if (format) url.searchParams.set('format', format);
  return url.toString();
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
    if (value === undefined || value === '') throw new OzUsageError(`Missing path parameter "${name}" of ${op.id}.`);
    if (op.slashParams?.includes(name)) {
      // A passed-through path keeps its `/` and may carry a query string: `contacts/42?x=1` sends `?x=1` upstream
      // (the `query` option adds to it) rather than an encoded `%3F` no upstream would read as a query.
      const mark = value.indexOf('?');
      const upstream = mark === -1 ? value : value.slice(0, mark);
      if (upstream === '') throw new OzUsageError(`Missing path parameter "${name}" of ${op.id} (only a query string was given).`);
      if (mark !== -1 && value.length > mark + 1) query = value.slice(mark);
      path += encodedPathParameter(op, name, upstream, true) + parts[i + 1]!;
    } else {
      path += encodedPathParameter(op, name, value, false) + parts[i + 1]!;
    }
  }
  return path + query;
}

function validationReport(call: Call, response: Response): ValidationReport {
  const span = call.span;
  return {
    log: call.log,
    tag: call.tag,
    requestId: response.headers.get('x-request-id') ?? undefined,
    ...(span ? { onMismatch: (error: OzResponseValidationError) => span.responseInvalid(error) } : {}),
  };
}

function streamOptions(call: Call, mode: StreamMode): StreamOptions {
  const span = call.span;
  const onEnd =
    span === undefined
      ? undefined
      : (error?: unknown) => {
          if (error instanceof OzStreamInterruptedError) span.interrupted(error);
          span.end(error);
        };
  return { mode, idleTimeout: call.idleTimeout, maxEventBytes: call.maxEventBytes, streamTimeout: call.streamTimeout, retainText: call.options.retainStreamText, signal: call.signal, ...(onEnd ? { onEnd } : {}) };
}

// Looked up at each call, so a `globalThis.fetch` replaced after the client was made (a test's mock) is used.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

function isStreamBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

function isAsyncBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { async?: unknown }).async === true;
}
