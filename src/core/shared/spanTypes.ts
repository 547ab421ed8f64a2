// The parts of OpenTelemetry's API the client reads, and what a call tells its span: tracing.ts (loaded with the
// client) and callSpan.ts (loaded on first use) take them from here, so neither imports the other back.

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
  /** The call's idempotency key (its `x-trace-id`), recorded as `oz.trace_id`. */
  readonly idempotencyKey: string | undefined;
  /** Where the span's W3C `traceparent` (and `tracestate`) are written. */
  readonly headers: Headers;
}
