import type { OperationHandler } from '../pipeline/operationHandler.js';
import { invalidParams, notFound } from '../contract/errors.js';
import { respondWithRun, takeTraceId } from './shared/executionFlow.js';
import { executionView } from '../state/executionViews.js';
import { findExecution } from './shared/executionRecords.js';
import { locateById, paginateIndex } from './shared/pagination.js';
import { executionIndex, isFinished, type ExecutionRecord } from '../state/state.js';
import { fenceAdmits } from './shared/toolFence.js';

/** `GET /v1/executions`: newest first, by `status` and `kind`. */
export const listExecutions: OperationHandler = (ctx) => {
  const status = ctx.query('status');
  const kind = ctx.query('kind');
  const account = ctx.account.name;
  const map = ctx.parts.store.data.executions;
  const list = {
    map,
    index: executionIndex(account, status, kind),
    descending: true,
    locate: locateById(map, (r) => r.account === account),
    cursorOf: (r: ExecutionRecord) => r.id,
  };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, executionView) });
};

/**
 * `GET /v1/executions/{id}`: the record; while it is not finished, the poll interval the server's timing
 * suggests (`timing.pollMs`, else the run's own timing), as `retry-after-ms` and in whole seconds (at least 1) as `Retry-After` (the contract's polling row).
 */
export const getExecution: OperationHandler = (ctx) => {
  const r = findExecution(ctx, ctx.params.id!);
  ctx.executionId = r.id;
  if (isFinished(r)) return ctx.reply(200, { kind: 'execution', value: executionView(r) });
  const ms = ctx.parts.options.timing.pollMs > 0 ? ctx.parts.options.timing.pollMs : ctx.parts.runner.pollAfterMs(r);
  return ctx.reply(200, { kind: 'execution', value: executionView(r) }, { 'retry-after': String(Math.ceil(ms / 1000)), 'retry-after-ms': String(ms) });
};

/** `POST /v1/executions/{id}/cancel`: cancels a queued or running execution; a finished one is unchanged. */
export const cancelExecution: OperationHandler = (ctx) => {
  const r = findExecution(ctx, ctx.params.id!);
  ctx.executionId = r.id;
  if (!isFinished(r)) {
    const now = ctx.parts.clock.now();
    r.status = 'cancelled';
    r.updated_at = now;
    r.finished_at = now;
    for (const span of r.spans) {
      if (span.ended_at === null) {
        span.status = 'error';
        span.ended_at = now;
      }
    }
    ctx.parts.store.executionChanged(r);
  }
  return ctx.reply(200, { kind: 'execution', value: executionView(r) });
};

/** `POST /v1/executions/{id}/followup`: a new execution of the run's agent with `user_request`. */
export const followupExecution: OperationHandler = (ctx) => {
  const { user_request: request, format: _format, async: asyncFlag, ...extra } = ctx.body;
  const previous = findExecution(ctx, ctx.params.id!);
  if (!isFinished(previous)) throw invalidParams(`Execution ${previous.id} is still ${previous.status}: follow up once it finished.`);
  const agent = previous.followup_agent === null ? undefined : ctx.parts.store.catalog.agents.get(previous.followup_agent);
  if (!agent) throw invalidParams(`Execution ${previous.id} has no agent to follow up with (a ${previous.kind} run).`);
  if (!fenceAdmits(ctx, agent.name)) throw notFound('agent', `No agent named ${agent.name}.`);
  const traceId = takeTraceId(ctx);
  const input = { ...(previous.kind === 'agent' ? previous.input : {}), ...extra, user_request: request };
  return respondWithRun(
    ctx,
    { kind: 'agent', target: agent.name, input, plan: { type: 'agent', agent, input }, async: asyncFlag === true, followupAgent: agent.name },
    traceId,
  );
};
