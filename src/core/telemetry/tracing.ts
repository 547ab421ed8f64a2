import type { CallSpan, CallSpanStart, OtelGlobal } from '../shared/spanTypes.js';
import { SDK_VERSION } from '../shared/version.js';
import { loadPart } from '../shared/optionalPart.js';
import type { HeaderRecord } from '../shared/headerValue.js';

/**
 * OpenTelemetry client spans, without importing `@opentelemetry/api`: the API (an optional peer) keeps what an
 * application registers (`trace.setGlobalTracerProvider`, a context manager) on one global object per major
 * version, which is how several copies of the API share one registration. Reading that object costs a property
 * lookup when nothing is registered, loads no module, and cannot break a bundler or a runtime without the API.
 *
 * Only the check of registeredTracing.ts loads with the client. The code that starts and records a span (`callSpan.ts`) is an optional
 * part (`optionalPart.ts`), loaded on the first call made while a tracer provider is registered: an application without OpenTelemetry neither ships
 * it in its first bundle chunk nor parses it at start.
 */
export type { Attributes, CallSpan, CallSpanStart, OtelContext, OtelGlobal, OtelSpan, OtelSpanContext } from '../shared/spanTypes.js';

/**
 * Starts the client span of one call on the API `registeredTracing()` found, and writes its W3C `traceparent` on
 * the request. The span is a child of the active span, named after the operation id, with the HTTP semantic
 * conventions' attributes.
 */
export async function startCallSpan(api: OtelGlobal, start: CallSpanStart): Promise<CallSpan> {
  return (await loadPart('OpenTelemetry spans', () => import('./callSpan.js'))).startCallSpan(api, start, SDK_VERSION);
}

/** Sends a call's trace context (`traceparent`, `tracestate`) on another request made for the same call. */
export function copyTraceContext(from: HeaderRecord, to: HeaderRecord): void {
  for (const name of ['traceparent', 'tracestate']) {
    const value = from[name];
    if (value !== undefined) to[name] = value;
  }
}
