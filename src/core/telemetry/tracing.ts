import type { CallSpan, CallSpanStart, OtelGlobal } from './spanTypes.js';
import { SDK_VERSION } from '../version.js';

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

export type { Attributes, CallSpan, CallSpanStart, OtelContext, OtelGlobal, OtelSpan, OtelSpanContext } from './spanTypes.js';

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
