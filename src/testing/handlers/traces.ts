import type { OperationHandler } from '../dispatch.js';
import { notFound } from '../errors.js';
import { traceView } from '../executionViews.js';
import { paginate } from '../pagination.js';

/** `GET /v1/traces`: the traces of the account's executions, newest first. */
export const listTraces: OperationHandler = (ctx) => {
  const account = ctx.account.name;
  const rows = [...ctx.core.store.data.executions.values()].filter((r) => r.account === account).reverse();
  return ctx.reply(200, { kind: 'record', value: paginate(ctx, rows, (r) => r.id, traceView) });
};

/** `GET /v1/traces/{execution_id}`. */
export const getTrace: OperationHandler = (ctx) => {
  const r = ctx.core.store.data.executions.get(ctx.params.execution_id!);
  if (!r || r.account !== ctx.account.name) throw notFound('execution', `No trace for execution ${ctx.params.execution_id}.`);
  ctx.executionId = r.id;
  return ctx.reply(200, { kind: 'record', value: traceView(r) });
};
