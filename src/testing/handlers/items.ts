import type { ItemCreateRequest } from '../../generated/types.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { notFound, OzMockError } from '../contract/errors.js';
import { newId } from '../support/ids.js';
import { itemView } from '../state/itemViews.js';
import { locateById, paginateIndex } from './shared/pagination.js';
import { itemIndex, type CompanyRecord, type ItemRecord } from '../state/state.js';

/** The company of `{campus}` in the caller's account (another account's slug answers the same 404). */
function company(ctx: RequestContext): CompanyRecord {
  const campus = ctx.params.campus!;
  const found = ctx.account.companies.get(campus);
  if (!found) throw notFound('company', `No company ${campus} in this account.`);
  return found;
}

/**
 * `POST /v1/companies/{campus}/items`: the body was validated against `ItemCreateRequest` (422 and nothing
 * written otherwise); answers 201 at intake. `tier: null` is the same as no tier.
 */
export const createCompanyItem: OperationHandler = (ctx) => {
  const co = company(ctx);
  const b = ctx.body as ItemCreateRequest;
  const building = co.buildings.get(b.building);
  if (!building) throw notFound('company', `No building ${b.building} in company ${co.slug}.`);

  const now = ctx.parts.clock.now();
  const item: ItemRecord = {
    id: newId('itm'),
    account: ctx.account.name,
    campus: co.slug,
    building: building.slug,
    title: b.title,
    body: b.body ?? '',
    kind: b.kind ?? 'task',
    source: 'api',
    priority: b.priority ?? 0,
    tier: b.tier ?? null,
    step: 'intake',
    attempt: 0,
    status: 'active',
    parked_reason: null,
    paused: 0,
    steer: null,
    last_output: null,
    cost_micros: 0,
    parent_item_id: null,
    created_at: now,
    updated_at: now,
  };
  ctx.parts.store.data.items.set(item.id, item);
  ctx.parts.walker.schedule(item);
  return ctx.reply(201, { kind: 'record', value: itemView(item) });
};

/** `GET /v1/companies/{campus}/items`: newest first, by `building` and `status`. */
export const listCompanyItems: OperationHandler = (ctx) => {
  const co = company(ctx);
  const building = ctx.query('building');
  const status = ctx.query('status');
  const account = ctx.account.name;
  const map = ctx.parts.store.data.items;
  const owns = (i: ItemRecord) => i.account === account && i.campus === co.slug;
  const list = {
    map,
    index: itemIndex(account, co.slug, building, status),
    descending: true,
    locate: locateById(map, owns),
    cursorOf: (i: ItemRecord) => i.id,
  };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, itemView) });
};

/** `GET /v1/companies/{campus}/items/{id}`. */
export const getCompanyItem: OperationHandler = (ctx) => {
  const co = company(ctx);
  const item = ctx.parts.store.data.items.get(ctx.params.id!);
  if (!item || item.account !== ctx.account.name || item.campus !== co.slug) throw notFound('item', `No item ${ctx.params.id} in company ${co.slug}.`);
  return ctx.reply(200, { kind: 'record', value: itemView(item) });
};
