import type { Reply } from '../wire/requestOutcome.js';
import type { OperationInfo } from '../contract/operations.js';
import type { RequestContext } from './requestContext.js';
import type { RequestStep, StepNeeds } from './requestStep.js';
import { authentication } from './steps/authenticate.js';
import { body } from './steps/body.js';
import { negotiation } from './steps/negotiate.js';
import { rateLimit } from './steps/rateLimit.js';
import { serveOnce, type ReplayNeeds } from './steps/replay.js';
import { tier } from './steps/tier.js';
import { traceId } from './steps/traceId.js';
import { validation } from './steps/validate.js';

/** An operation's behaviour: it answers the request (or throws an `OzMockError`). */
export type OperationHandler = (ctx: RequestContext) => Reply | Promise<Reply>;

/**
 * What every request of an operation goes through before its body is read and before a fault's pattern is run
 * (the Host was checked before the request got here: steps/hostCheck.ts wraps every surface of a listener).
 */
export const KEY_STEPS: readonly RequestStep[] = [
  authentication, // the key the operation takes, its plane, expiry, revocation, address fence: ctx.principal
];

/**
 * What every request of an operation goes through after its key, its body's bytes and its fault, before its
 * handler, in this order (a file each in steps/). The first to throw answers instead of the handler.
 */
export const REQUEST_STEPS: readonly RequestStep[] = [
  rateLimit, // the key's window: ctx.rate, or 429
  tier, // the account's tier opens the plane
  traceId, // a write's x-trace-id (MCP's too), checked before the body: ctx.traceId
  body, // JSON or YAML: ctx.body (MCP: ctx.message)
  validation, // parameters and body against openapi.json
  negotiation, // the answer's wire: ctx.wire
];

/** What the pipeline works with: what its steps and its replay use. */
export type PipelineNeeds = StepNeeds & ReplayNeeds;

/** Runs the steps of the key ({@link KEY_STEPS}). */
export function runKeySteps(ctx: RequestContext, op: OperationInfo, parts: PipelineNeeds): void {
  for (const step of KEY_STEPS) step(ctx, op, parts);
}

/**
 * Runs the steps ({@link REQUEST_STEPS}), then the handler; a non-run write of a known caller with a trace id is served once (the
 * last step, replay: a repeat answers the kept answer again).
 */
export async function runPipeline(ctx: RequestContext, op: OperationInfo, handler: OperationHandler, parts: PipelineNeeds, path: string): Promise<Reply> {
  for (const step of REQUEST_STEPS) step(ctx, op, parts);
  const { traceId: key } = ctx;
  if (key === null || !op.replay || ctx.principal === null) return handler(ctx);
  return serveOnce(ctx, parts, key, path, () => handler(ctx));
}
