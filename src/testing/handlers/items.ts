import type { Item, ItemKind, ItemStatus } from '../../generated/types.js';
import type { RequestContext } from '../context.js';
import type { OperationHandler } from '../dispatch.js';
import { invalidParams, notFound, OzMockError } from '../errors.js';
import { usd } from '../executionViews.js';
import { newId } from '../ids.js';
import { locateById, paginateIndex } from '../pagination.js';
import { requireFields } from '../paramCheck.js';
import { itemIndex, type CompanyRecord, type ItemRecord } from '../state.js';

const KINDS: ReadonlySet<string> = new Set<ItemKind>(['feature', 'bugfix', 'docs', 'research', 'content', 'task']);
const STATUSES: ReadonlySet<string> = new Set<ItemStatus>(['active', 'done', 'failed', 'parked']);

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
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function companyNotFound(message: string): OzMockError {
  return new OzMockError(404, 'company_not_found', message);
}

/** The company of `{campus}` in the caller's account (another account's slug answers the same 404). */
function company(ctx: RequestContext): CompanyRecord {
  const campus = ctx.params.campus!;
  const found = ctx.account.companies.get(campus);
  if (!found) throw companyNotFound(`No company ${campus} in this account.`);
  return found;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** `POST /v1/companies/{campus}/items`: validates every field, writes nothing on 422, answers 201 at intake. */
export const createCompanyItem: OperationHandler = (ctx) => {
  const co = company(ctx);
  const b = ctx.body;
  requireFields(b, ['building', 'title']);
  if (typeof b.building !== 'string') throw invalidParams('building must be a string (a building slug).');
  if (typeof b.title !== 'string' || b.title.length < 1 || b.title.length > 300) throw invalidParams('title must be a string of 1 to 300 characters.');
  if (!absent(b.body) && (typeof b.body !== 'string' || b.body.length > 65536)) throw invalidParams('body must be a string of at most 65536 characters.');
  if (!absent(b.kind) && (typeof b.kind !== 'string' || !KINDS.has(b.kind))) {
    throw invalidParams('kind must be one of: feature, bugfix, docs, research, content, task.');
  }
  if (!absent(b.priority) && !Number.isInteger(b.priority)) throw invalidParams('priority must be an integer.');
  if (!absent(b.tier) && (typeof b.tier !== 'string' || b.tier.length > 32)) throw invalidParams('tier must be a string of at most 32 characters.');
  const building = co.buildings.get(b.building);
  if (!building) throw companyNotFound(`No building ${b.building} in company ${co.slug}.`);

  const now = ctx.core.clock.now();
  const item: ItemRecord = {
    id: newId('itm'),
    account: ctx.account.name,
    campus: co.slug,
    building: building.slug,
    title: b.title,
    body: typeof b.body === 'string' ? b.body : '',
    kind: (b.kind as ItemKind | undefined) ?? 'task',
    source: 'api',
    priority: (b.priority as number | undefined) ?? 0,
    tier: typeof b.tier === 'string' ? b.tier : null,
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
  ctx.core.store.data.items.set(item.id, item);
  ctx.core.walker.schedule(item);
  return ctx.reply(201, { kind: 'record', value: itemView(item) });
};

/** `GET /v1/companies/{campus}/items`: newest first, by `building` and `status`. */
export const listCompanyItems: OperationHandler = (ctx) => {
  const co = company(ctx);
  const building = ctx.query('building');
  const status = ctx.query('status');
  if (status !== undefined && !STATUSES.has(status)) throw invalidParams('status must be one of: active, done, failed, parked.');
  const account = ctx.account.name;
  const map = ctx.core.store.data.items;
  const owns = (i: ItemRecord) => i.account === account && i.campus === co.slug;
  const list = { map, index: itemIndex(account, co.slug, building, status), descending: true, locate: locateById(map, owns), cursorOf: (i: ItemRecord) => i.id };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, itemView) });
};

/** `GET /v1/companies/{campus}/items/{id}`. */
export const getCompanyItem: OperationHandler = (ctx) => {
  const co = company(ctx);
  const item = ctx.core.store.data.items.get(ctx.params.id!);
  if (!item || item.account !== ctx.account.name || item.campus !== co.slug) throw notFound(`No item ${ctx.params.id} in company ${co.slug}.`);
  return ctx.reply(200, { kind: 'record', value: itemView(item) });
};
