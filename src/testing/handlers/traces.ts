import type { OperationHandler } from '../pipeline/operationHandler.js';
import { notFound } from '../contract/errors.js';
import { traceView } from '../state/executionViews.js';
import { locateById, paginateIndex } from './shared/pagination.js';
import { executionIndex, type ExecutionRecord } from '../state/state.js';

/** `GET /v1/traces`: the traces of the account's executions, newest first. */
export const listTraces: OperationHandler = (ctx) => {
  const account = ctx.account.name;
  const map = ctx.parts.store.data.executions;
  const list = {
    map,
    index: executionIndex(account),
    descending: true,
    locate: locateById(map, (r) => r.account === account),
    cursorOf: (r: ExecutionRecord) => r.id,
  };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, traceView) });
};

/** `GET /v1/traces/{execution_id}`. */
export const getTrace: OperationHandler = (ctx) => {
  const r = ctx.parts.store.data.executions.get(ctx.params.execution_id!);
  if (!r || r.account !== ctx.account.name) throw notFound('execution', `No trace for execution ${ctx.params.execution_id}.`);
  ctx.executionId = r.id;
  return ctx.reply(200, { kind: 'record', value: traceView(r) });
};
