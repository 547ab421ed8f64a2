import type { RequestContext } from './context.js';
import { invalidParams } from './errors.js';

/** A page of a list route. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The `limit` query parameter (1 to 100 by openapi.json's `Limit`, checked before the handler); default 20. */
export function pageLimit(ctx: RequestContext): number {
  const raw = ctx.query('limit');
  return raw === undefined ? 20 : Number(raw);
}

/**
 * One page of `rows` (already in the route's order): after the row whose key is `cursor`, `limit` rows, and
 * the key of the last one as `next_cursor` when more follow. An unknown cursor is 422 `invalid_params`.
 */
export function paginate<R, T>(ctx: RequestContext, rows: readonly R[], keyOf: (row: R) => string, view: (row: R) => T): Page<T> {
  const limit = pageLimit(ctx);
  const cursor = ctx.query('cursor');
  let start = 0;
  if (cursor !== undefined && cursor !== '') {
    const at = rows.findIndex((r) => keyOf(r) === cursor);
    if (at < 0) throw invalidParams('cursor is not a next_cursor of this list.');
    start = at + 1;
  }
  const slice = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  return { data: slice.map(view), next_cursor: more && slice.length ? keyOf(slice[slice.length - 1]!) : null };
}
