import { invalidParams } from '../../contract/errors.js';
import { OPENAPI_DOCUMENT } from '../../contract/operations.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

// The contract's `x-trace-id` as openapi.json's `TraceId` parameter describes it: printable ASCII, no spaces.
const TRACE_ID_SCHEMA = (OPENAPI_DOCUMENT as { components: { parameters: { TraceId: { schema: { minLength: number; maxLength: number; pattern: string } } } } })
  .components.parameters.TraceId.schema;
const TRACE_ID = new RegExp(TRACE_ID_SCHEMA.pattern);

/**
 * The request's `x-trace-id`, checked as the contract says: `null` when absent; 422 `invalid_params` when it is
 * empty, longer than 255 characters, or holds anything but printable ASCII without spaces.
 */
export function checkedTraceId(value: string | null): string | null {
  if (value === null) return null;
  const { minLength, maxLength } = TRACE_ID_SCHEMA;
  if (value.length < minLength || value.length > maxLength || !TRACE_ID.test(value)) {
    throw invalidParams(`x-trace-id must be ${minLength} to ${maxLength} printable ASCII characters without spaces.`);
  }
  return value;
}

/** Step: a write's `x-trace-id` is checked before its body is read (a GET's is not looked at, nor MCP's). */
export const traceId: ServerStep<ServerExchange> = (ctx, next) => {
  // Every write, MCP's included, checks its trace id.
  if (ctx.op.method === 'GET') return next();
  const request = ctx.ctx;
  request.traceId = checkedTraceId(request.header('x-trace-id'));
  return next();
};
