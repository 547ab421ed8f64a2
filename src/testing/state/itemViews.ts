import type { Item } from '../../generated/types.js';
import { usd } from './executionViews.js';
import { isoTime } from '../support/isoTime.js';
import type { ItemRecord } from './state.js';

/** The API's view of an item. */
export function itemView(r: ItemRecord): Item {
  return {
    id: r.id,
    campus: r.campus,
    building: r.building,
    title: r.title,
    body: r.body,
    kind: r.kind,
    source: r.source,
    priority: r.priority,
    tier: r.tier,
    step: r.step,
    attempt: r.attempt,
    status: r.status,
    parked_reason: r.parked_reason,
    paused: r.paused,
    steer: r.steer,
    last_output: r.last_output,
    cost_usd: usd(r.cost_micros),
    parent_item_id: r.parent_item_id,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}
