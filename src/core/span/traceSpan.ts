import type { Answer, Call, Next, Step } from '../shared/call.js';
import { registeredTracing } from '../telemetry/registeredTracing.js';
import { startCallSpan, type OtelGlobal } from '../telemetry/tracing.js';

/**
 * The span step: when an application registered a tracer provider, the call runs inside its OpenTelemetry span
 * (its `traceparent` sent), which records the answer's ids and ends with the call, or with its `Stream`. Most
 * calls: no tracer, so the step only hands the call on.
 */
export const traceSpan: Step = (call, next) => {
  const api = registeredTracing();
  return api === undefined ? next(call) : inSpan(call, api, next);
};

async function inSpan(prepared: Call, api: OtelGlobal, next: Next): Promise<Answer> {
  // The span writes its trace context (`traceparent`, `tracestate`) on a `Headers`, copied onto the call's.
  const context = new Headers();
  const span = await startCallSpan(api, {
    operationId: prepared.op.id,
    method: prepared.op.method,
    url: prepared.url,
    idempotencyKey: prepared.idempotencyKey,
    headers: context,
  });
  context.forEach((value, name) => {
    prepared.headers[name] = value;
  });
  const call = { ...prepared, span };
  try {
    const answer = await next(call);
    span.answered(answer.response);
    if (!answer.streamed) span.end();
    return answer;
  } catch (error) {
    span.end(error);
    throw error;
  }
}
