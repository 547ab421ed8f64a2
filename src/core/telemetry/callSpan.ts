import type { Attributes, CallSpan, CallSpanStart, OtelGlobal, OtelSpan } from '../shared/spanTypes.js';

// Loaded by tracing.ts on the first call made while a tracer provider is registered (which hands it the SDK's
// version: an import of version.ts here would split that module into a chunk of its own, one more file to load
// at start).

/** The key under which the API's context holds the active span. */
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** `SpanKind.CLIENT` and `SpanStatusCode.ERROR` of the API. */
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

const INVALID_TRACE_ID = '00000000000000000000000000000000';

/** Starts the client span of one call on a registered API (see `startCallSpan` of tracing.ts), with the tracer `oz-sdk` of `version`. */
export function startCallSpan(api: OtelGlobal, start: CallSpanStart, version: string): CallSpan {
  const url = new URL(start.url);
  const attributes: Attributes = {
    'http.request.method': start.method,
    'url.full': url.href,
    'server.address': url.hostname,
    'oz.operation_id': start.operationId,
  };
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  if (port) attributes['server.port'] = Number(port);
  if (start.idempotencyKey !== undefined) attributes['oz.trace_id'] = start.idempotencyKey;
  const parent = api.context?.active();
  const span = api.trace!.getTracer('oz-sdk', version).startSpan(start.operationId, { kind: SPAN_KIND_CLIENT, attributes }, parent);
  const context = span.spanContext();
  const propagated = context.traceId !== INVALID_TRACE_ID ? context : (parent?.getValue(SPAN_KEY) as OtelSpan | undefined)?.spanContext();
  if (propagated && propagated.traceId !== INVALID_TRACE_ID) {
    start.headers.set('traceparent', `00-${propagated.traceId}-${propagated.spanId}-${(propagated.traceFlags & 0xff).toString(16).padStart(2, '0')}`);
    const state = propagated.traceState?.serialize();
    if (state) start.headers.set('tracestate', state);
  }
  return new RecordingCallSpan(span);
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

  /** An answer that does not match openapi.json, under `validate: 'warn'`. */
  responseInvalid(error: { path: string; message: string }): void {
    this.#span.addEvent('response.invalid', { 'oz.validation.path': error.path, 'exception.message': error.message });
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
      const attributes: Attributes = {
        'error.type':
          typeof fields.code === 'string' && typeof fields.status === 'number' ? fields.code : typeof fields.name === 'string' ? fields.name : 'Error',
      };
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
