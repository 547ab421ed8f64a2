import type { ParsedResponse } from '../result/apiPromise.js';
import type { Call, CallPort } from '../shared/call.js';
import type { HeaderRecord } from '../shared/headerValue.js';
import { startCallSpan, type OtelGlobal } from './tracing.js';

// A call inside its OpenTelemetry span: used only when an application registered a tracer provider (the
// transport checks `registeredTracing()` on every call, and comes here only then).

/**
 * The call with its span started (and its `traceparent` set), when a tracer provider is registered (`api`, from
 * `registeredTracing()`: a call without one waits for nothing).
 */
export async function withSpan(call: Call, api: OtelGlobal | undefined): Promise<Call> {
  if (api === undefined) return call;
  // The span writes its trace context (`traceparent`, `tracestate`) on a `Headers`, copied onto the call's.
  const context = new Headers();
  const span = await startCallSpan(api, { operationId: call.op.id, method: call.op.method, url: call.url, traceId: call.traceId, headers: context });
  copyInto(call.headers, context);
  return { ...call, span };
}

/** Runs a call's work inside its span (when it has one): the answer's ids on it, ended unless `ends` says the answer ends it later. */
export async function traced<R extends { response: Response }>(call: Call, work: () => Promise<R>, ends: (answer: R) => boolean): Promise<R> {
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

/** A call sent and answered inside its span (a stream's span ends with the stream: see streamOptions). */
export async function tracedAnswer(port: CallPort, prepared: Call, api: OtelGlobal): Promise<ParsedResponse<unknown>> {
  const call = await withSpan(prepared, api);
  return await traced(call, () => port.answer(call), () => call.mode !== 'stream');
}

/** Sets every header of `from` on `to` (names already lower-case, values already checked by `Headers`). */
export function copyInto(to: HeaderRecord, from: Headers): void {
  from.forEach((value, name) => {
    to[name] = value;
  });
}
