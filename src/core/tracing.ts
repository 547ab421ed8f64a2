import { SDK_VERSION } from './version.js';

/**
 * OpenTelemetry client spans, without importing `@opentelemetry/api`: the API (an optional peer) keeps what an
 * application registers (`trace.setGlobalTracerProvider`, a context manager) on one global object per major
 * version, which is how several copies of the API share one registration. Reading that object costs a property
 * lookup when nothing is registered, loads no module, and cannot break a bundler or a runtime without the API.
 */
const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** The key under which the API's context holds the active span. */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** `SpanKind.CLIENT` and `SpanStatusCode.ERROR` of the API. */
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

type Attributes = Record<string, string | number | boolean>;

interface OtelContext {
  getValue(key: symbol): unknown;
}

interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string };
}

interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error): unknown;
  end(): void;
}

interface OtelGlobal {
  version?: string;
  trace?: { getTracer(name: string, version?: string): { startSpan(name: string, options: object, context?: OtelContext): OtelSpan } };
  context?: { active(): OtelContext };
}

const INVALID_TRACE_ID = '00000000000000000000000000000000';

/** What a call tells its span. */
export interface CallSpan {
  /** A retry is about to wait `waitMs` after `reason` (a status and code, or a connection error). */
  retry(attempt: number, reason: string, waitMs: number): void;
  /** The final answer's status and ids (request id, execution id). */
  answered(response: Response): void;
  /** A stream was cut or went silent before its closing event. */
  interrupted(error: Error): void;
  /** Ends the span; an error marks it failed. Later calls do nothing. */
  end(error?: unknown): void;
}

/** What identifies a call on its span. */
export interface CallSpanStart {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly traceId: string | undefined;
  /** Where the span's W3C `traceparent` (and `tracestate`) are written. */
  readonly headers: Headers;
}

/**
 * Starts the client span of one call when an application registered a tracer provider through
 * `@opentelemetry/api` 1.x (undefined otherwise, at the cost of one global lookup), and writes its W3C
 * `traceparent` on the request. The span is a child of the active span, named after the operation id, with the
 * HTTP semantic conventions' attributes.
 */
export function startCallSpan(start: CallSpanStart): CallSpan | undefined {
  const api = (globalThis as { [OTEL_API_GLOBAL]?: OtelGlobal })[OTEL_API_GLOBAL];
  const provider = api?.trace;
  if (provider === undefined || !api?.version?.startsWith('1.')) return undefined;
  const url = new URL(start.url);
  const attributes: Attributes = {
    'http.request.method': start.method,
    'url.full': url.href,
    'server.address': url.hostname,
    'oz.operation_id': start.operationId,
  };
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  if (port) attributes['server.port'] = Number(port);
  if (start.traceId !== undefined) attributes['oz.trace_id'] = start.traceId;
  const parent = api.context?.active();
  const span = provider.getTracer('oz-sdk', SDK_VERSION).startSpan(start.operationId, { kind: SPAN_KIND_CLIENT, attributes }, parent);
  const context = span.spanContext();
  const propagated = context.traceId !== INVALID_TRACE_ID ? context : (parent?.getValue(SPAN_KEY) as OtelSpan | undefined)?.spanContext();
  if (propagated && propagated.traceId !== INVALID_TRACE_ID) {
    start.headers.set('traceparent', `00-${propagated.traceId}-${propagated.spanId}-${(propagated.traceFlags & 0xff).toString(16).padStart(2, '0')}`);
    const state = propagated.traceState?.serialize();
    if (state) start.headers.set('tracestate', state);
  }
  return new RecordingCallSpan(span);
}

/** Sends a call's trace context (`traceparent`, `tracestate`) on another request made for the same call. */
export function copyTraceContext(from: Headers, to: Headers): void {
  for (const name of ['traceparent', 'tracestate']) {
    const value = from.get(name);
    if (value !== null) to.set(name, value);
  }
}

class RecordingCallSpan implements CallSpan {
  readonly #span: OtelSpan;
  #retries = 0;
  #ended = false;

  constructor(span: OtelSpan) {
    this.#span = span;
  }

  retry(attempt: number, reason: string, waitMs: number): void {
    this.#retries = attempt + 1;
    this.#span.addEvent('retry', { 'oz.retry.attempt': attempt + 1, 'oz.retry.reason': reason, 'oz.retry.wait_ms': Math.round(waitMs) });
  }

  answered(response: Response): void {
    const attributes: Attributes = { 'http.response.status_code': response.status };
    const requestId = response.headers.get('x-request-id');
    const executionId = response.headers.get('x-execution-id');
    if (requestId) attributes['oz.request_id'] = requestId;
    if (executionId) attributes['oz.execution_id'] = executionId;
    this.#span.setAttributes(attributes);
  }

  interrupted(error: Error): void {
    this.#span.addEvent('stream.interrupted', { 'error.type': error.name, 'exception.message': error.message });
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.setAttributes({ 'oz.retry_count': this.#retries, ...(this.#retries > 0 ? { 'http.request.resend_count': this.#retries } : {}) });
    if (error !== undefined) {
      const fields = (typeof error === 'object' && error !== null ? error : {}) as {
        status?: unknown;
        code?: unknown;
        requestId?: unknown;
        executionId?: unknown;
        name?: unknown;
      };
      const attributes: Attributes = { 'error.type': typeof fields.code === 'string' ? fields.code : typeof fields.name === 'string' ? fields.name : 'Error' };
      if (typeof fields.status === 'number') attributes['http.response.status_code'] = fields.status;
      if (typeof fields.requestId === 'string') attributes['oz.request_id'] = fields.requestId;
      if (typeof fields.executionId === 'string') attributes['oz.execution_id'] = fields.executionId;
      this.#span.setAttributes(attributes);
      if (error instanceof Error) this.#span.recordException(error);
      this.#span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
    }
    this.#span.end();
  }
}
