import type { OtelGlobal } from '../shared/spanTypes.js';

/** Where `@opentelemetry/api` 1.x keeps what an application registers (see tracing.ts). */
export const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/**
 * The API's global object when an application registered a tracer provider through `@opentelemetry/api` 1.x,
 * else undefined (at the cost of one global lookup).
 */
export function registeredTracing(): OtelGlobal | undefined {
  const api = (globalThis as { [OTEL_API_GLOBAL]?: OtelGlobal })[OTEL_API_GLOBAL];
  return api?.trace !== undefined && api.version?.startsWith('1.') ? api : undefined;
}
