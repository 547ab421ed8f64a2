import type { RequestContext } from '../../pipeline/requestContext.js';
import { notFound } from '../../contract/errors.js';
import type { ExecutionRecord } from '../../state/state.js';

/** An execution of the caller's account by id, or 404 `execution_not_found`. */
export function findExecution(ctx: RequestContext, id: string): ExecutionRecord {
  const r = ctx.parts.store.data.executions.get(id);
  if (!r || r.account !== ctx.account.name) throw notFound('execution', `No execution ${id}.`);
  return r;
}
