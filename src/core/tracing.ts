import { SDK_VERSION } from './version.js';

/**
 * OpenTelemetry client spans, without importing `@opentelemetry/api`: the API (an optional peer) keeps what an
 * application registers (`trace.setGlobalTracerProvider`, a context manager) on one global object per major
 * version, which is how several copies of the API share one registration. Reading that object costs a property
 * lookup when nothing is registered, loads no module, and cannot break a bundler or a runtime without the API.
 *
 * Only this check loads with the client. The code that starts and records a span (`callSpan.ts`) is imported on
 * the first call made while a tracer provider is registered: an application without OpenTelemetry neither ships
 * it in its first bundle chunk nor parses it at start.
 */
export const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** Span attributes, as the API takes them. */
export type Attributes = Record<string, string | number | boolean>;

/** The parts of the API's context the client reads. */
export interface OtelContext {
  getValue(key: symbol): unknown;
}

/** The parts of the API's span context the client reads. */
export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string };
}

/** The parts of the API's span the client calls. */
export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error): unknown;
  end(): void;
}

/** The API's global object, as far as the client reads it. */
export interface OtelGlobal {
  version?: string;
  trace?: { getTracer(name: string, version?: string): { startSpan(name: string, options: object, context?: OtelContext): OtelSpan } };
  context?: { active(): OtelContext };
}

/** What a call tells its span. */
export interface CallSpan {
  /** A retry is about to wait `waitMs` after `reason` (a status and code, or a connection error). */
  retry(attempt: number, reason: string, waitMs: number): void;
  /** The final answer's status and ids (request id, execution id). */
  answered(response: Response): void;
  /** A stream was cut or went silent before its closing event. */
  interrupted(error: Error): void;
  /** An answer does not match openapi.json (`validate: 'warn'`). */
  responseInvalid(error: { path: string; message: string }): void;
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
 * The API's global object when an application registered a tracer provider through `@opentelemetry/api` 1.x,
 * else undefined (at the cost of one global lookup).
 */
export function registeredTracing(): OtelGlobal | undefined {
  const api = (globalThis as { [OTEL_API_GLOBAL]?: OtelGlobal })[OTEL_API_GLOBAL];
  return api?.trace !== undefined && api.version?.startsWith('1.') ? api : undefined;
}

let spans: Promise<typeof import('./callSpan.js')> | undefined;

/**
 * Starts the client span of one call on the API `registeredTracing()` found, and writes its W3C `traceparent` on
 * the request. The span is a child of the active span, named after the operation id, with the HTTP semantic
 * conventions' attributes.
 */
export async function startCallSpan(api: OtelGlobal, start: CallSpanStart): Promise<CallSpan> {
  spans ??= import('./callSpan.js');
  return (await spans).startCallSpan(api, start, SDK_VERSION);
}

/** Sends a call's trace context (`traceparent`, `tracestate`) on another request made for the same call. */
export function copyTraceContext(from: Headers, to: Headers): void {
  for (const name of ['traceparent', 'tracestate']) {
    const value = from.get(name);
    if (value !== null) to.set(name, value);
  }
}
