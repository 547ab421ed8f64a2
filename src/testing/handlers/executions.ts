import type { OperationHandler } from '../dispatch.js';
import { invalidParams } from '../errors.js';
import { respondWithRun, takeTraceId } from '../executionFlow.js';
import { findExecution, isFinished } from '../executionRecords.js';
import { executionView } from '../executionViews.js';
import { paginate } from '../pagination.js';

/** `GET /v1/executions`: newest first, by `status` and `kind`. */
export const listExecutions: OperationHandler = (ctx) => {
  const status = ctx.query('status');
  const kind = ctx.query('kind');
  const account = ctx.account.name;
  const rows = [...ctx.core.store.data.executions.values()]
    .filter((r) => r.account === account && (status === undefined || r.status === status) && (kind === undefined || r.kind === kind))
    .reverse();
  return ctx.reply(200, { kind: 'record', value: paginate(ctx, rows, (r) => r.id, executionView) });
};

/** `GET /v1/executions/{id}`: the record; while it is not finished, the poll interval (`timing.pollMs`). */
export const getExecution: OperationHandler = (ctx) => {
  const r = findExecution(ctx, ctx.params.id!);
  ctx.executionId = r.id;
  const poll = { 'retry-after': String(Math.max(1, Math.ceil(ctx.core.options.timing.pollMs / 1000))) };
  return ctx.reply(200, { kind: 'execution', value: executionView(r) }, isFinished(r) ? undefined : poll);
};

/** `POST /v1/executions/{id}/cancel`: cancels a queued or running execution; a finished one is unchanged. */
export const cancelExecution: OperationHandler = (ctx) => {
  const r = findExecution(ctx, ctx.params.id!);
  ctx.executionId = r.id;
  if (!isFinished(r)) {
    const now = ctx.core.clock.now();
    r.status = 'cancelled';
    r.updated_at = now;
    r.finished_at = now;
    for (const span of r.spans) {
      if (span.ended_at === null) {
        span.status = 'error';
        span.ended_at = now;
      }
    }
  }
  return ctx.reply(200, { kind: 'execution', value: executionView(r) });
};

/** `POST /v1/executions/{id}/followup`: a new execution of the run's agent with `user_request`. */
export const followupExecution: OperationHandler = (ctx) => {
  const { user_request: request, format: _format, async: asyncFlag, ...extra } = ctx.body;
  const previous = findExecution(ctx, ctx.params.id!);
  if (!isFinished(previous)) throw invalidParams(`Execution ${previous.id} is still ${previous.status}: follow up once it finished.`);
  const agent = previous.followup_agent === null ? undefined : ctx.core.store.catalog.agents.get(previous.followup_agent);
  if (!agent) throw invalidParams(`Execution ${previous.id} has no agent to follow up with (a ${previous.kind} run).`);
  const traceId = takeTraceId(ctx);
  const input = { ...(previous.kind === 'agent' ? previous.input : {}), ...extra, user_request: request };
  return respondWithRun(
    ctx,
    { kind: 'agent', target: agent.name, input, plan: { type: 'agent', agent, input }, async: asyncFlag === true, followupAgent: agent.name },
    traceId,
  );
};
