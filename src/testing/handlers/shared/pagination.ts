import type { RequestContext } from '../../pipeline/requestContext.js';
import { invalidParams } from '../../contract/errors.js';
import type { IndexedMap } from '../../support/indexedMap.js';

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

/** Where a list route reads from an {@link IndexedMap}. */
export interface IndexedList<R, K> {
  readonly map: IndexedMap<R, K>;
  /** The index of the route's filters. */
  readonly index: string;
  /** Newest (highest position) first. */
  readonly descending: boolean;
  /** The position a cursor stands for, or `undefined` when it is none of this list's (an unknown id). */
  readonly locate: (cursor: string) => K | undefined;
  /** The cursor of a row (its id, or its name in a list by name). */
  readonly cursorOf: (row: R) => string;
}

/** An {@link IndexedList}'s `locate` for cursors that are ids: the row must exist and be the list's. */
export function locateById<R, K>(map: IndexedMap<R, K>, owns: (row: R) => boolean): (cursor: string) => K | undefined {
  return (cursor) => {
    const row = map.get(cursor);
    return row !== undefined && owns(row) ? map.positionOf(cursor) : undefined;
  };
}

/**
 * One page of an indexed list, in O(log n + limit) at any depth: the cursor (what {@link paginate} answers: the
 * last row's key) is located without a scan and the page read from its position on, so a cursor stays good
 * when its row left the filter since (a status changed). An unknown cursor, or one of a record gone, is 422.
 */
export function paginateIndex<R, K, T>(ctx: RequestContext, list: IndexedList<R, K>, view: (row: R) => T): Page<T> {
  const limit = pageLimit(ctx);
  const cursor = ctx.query('cursor');
  let after: K | undefined;
  if (cursor !== undefined && cursor !== '') {
    after = list.locate(cursor);
    if (after === undefined) throw invalidParams('cursor is not a next_cursor of this list.');
  }
  const rows = list.map.page(list.index, after, limit + 1, list.descending);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  return { data: rows.map(view), next_cursor: more ? list.cursorOf(rows[rows.length - 1]!) : null };
}
