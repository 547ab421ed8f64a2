import type { Item } from '../../generated/types.js';
import { usd } from './executionViews.js';
import { isoTime } from '../support/isoTime.js';
import { ITEM_FIELDS, type ItemPlainField, type ItemStoredOtherwise } from './itemFields.js';
import type { ItemRecord } from './state.js';

/** The API's view of an item. */
export function itemView(r: ItemRecord): Item {
  // Every field of the schema in its order (ITEM_FIELDS): a plain one as stored, the others converted.
  const view: Record<string, unknown> = {};
  for (const field of ITEM_FIELDS) view[field] = field in STORED_OTHERWISE ? STORED_OTHERWISE[field as ItemStoredOtherwise](r) : r[field as ItemPlainField];
  return view as Item;
}

/** The fields of `Item` kept in another form, each read from a record. */
const STORED_OTHERWISE: Readonly<Record<ItemStoredOtherwise, (r: ItemRecord) => unknown>> = {
  cost_usd: (r) => usd(r.cost_micros),
  created_at: (r) => isoTime(r.created_at),
  updated_at: (r) => isoTime(r.updated_at),
};
