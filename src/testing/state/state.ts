import { bySeq, IndexedMap } from '../support/indexedMap.js';
import type { ConnectInfo, ErrorObject, ExecutionKind, ExecutionStatus, ItemKind, ItemSource, ItemStatus, Span, WorkflowTask } from '../../generated/types.js';

/** An account tier. `free` has no company service (503 `not_enabled`). */
export type Tier = 'free' | 'pro' | (string & {});

/** The plane a key opens: `platform` (`ozk_`) opens all; the legacy kinds only their own. */
export type KeyKind = 'platform' | 'models' | 'proxy';

/** A stored key: only the hash of its value is kept. */
export interface KeyRecord {
  id: string;
  account: string;
  kind: KeyKind;
  name: string;
  hash: string;
  /** The kind's prefix and the value's last four characters, for listings (`ozk_…WxYz`). */
  preview: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  fence_tools: string[] | null;
  fence_addresses: string[] | null;
}

/** An account connection to a provider. */
export interface ConnectionRecord {
  provider: string;
  method: ConnectInfo['method'];
  status: 'pending' | 'linked';
  url: string;
}

/** One office of a cloud building's pipeline. */
export interface PipelineStep {
  id: string;
}

/** A building of a company: `cloud` walks items through its pipeline; `local`'s node picks them up. */
export interface BuildingRecord {
  slug: string;
  kind: 'cloud' | 'local';
  pipeline: PipelineStep[];
}

/** An item as stored (the API's `Item`, with epoch ms times and micro-dollar cost). */
export interface ItemRecord {
  id: string;
  account: string;
  campus: string;
  building: string;
  title: string;
  body: string;
  kind: ItemKind;
  source: ItemSource;
  priority: number;
  tier: string | null;
  step: string;
  attempt: number;
  status: ItemStatus;
  parked_reason: string | null;
  paused: 0 | 1;
  steer: string | null;
  last_output: string | null;
  cost_micros: number;
  parent_item_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A company of an account. */
export interface CompanyRecord {
  slug: string;
  buildings: Map<string, BuildingRecord>;
}

/** An account: tier, wallet, connections, companies and its per-key rate-limit setting. */
export interface AccountRecord {
  name: string;
  tier: Tier;
  /** Wallet balance and spend, in micro-dollars. */
  wallet: { balance_micros: number; spent_micros: number };
  connections: Map<string, ConnectionRecord>;
  companies: Map<string, CompanyRecord>;
  rate_limit: { limit: number; window_ms: number };
}

/** A stored workflow. */
export interface WorkflowRecord {
  id: string;
  account: string;
  name: string;
  description: string | null;
  tasks: WorkflowTask[];
  created_at: number;
  updated_at: number;
}

/** A schedule. */
export interface ScheduleRecord {
  id: string;
  account: string;
  name: string;
  cron: string;
  timezone: string;
  target: { kind: ExecutionKind; name: string };
  input: Record<string, unknown>;
  enabled: boolean;
  next_run_at: number | null;
  created_at: number;
}

/** A span as stored (epoch ms times). */
export interface SpanRecord {
  id: string;
  parent_id: string | null;
  name: string;
  status: Span['status'];
  started_at: number;
  ended_at: number | null;
  attributes: Record<string, unknown>;
}

/** An execution as stored, with what a follow-up needs. */
export interface ExecutionRecord {
  id: string;
  account: string;
  kind: ExecutionKind;
  target: string;
  status: ExecutionStatus;
  content: string | null;
  error: ErrorObject | null;
  workflow_id: string | null;
  task_id: string | null;
  cost_micros: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The input the run was given (tool params, agent fields, or the workflow's input). */
  input: Record<string, unknown>;
  /** The agent a follow-up talks to (an agent run's agent, a workflow's last task's agent). */
  followup_agent: string | null;
  spans: SpanRecord[];
  /** A workflow run's tasks as it runs them: what takes the run up again when a saved state is loaded. */
  tasks?: readonly RunTaskRecord[];
}

/** A workflow task as a run holds it: its id, its agent's name and its own fields (`user_request`, ...). */
export interface RunTaskRecord {
  readonly id: string;
  readonly agent: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Whether an execution is finished (succeeded, failed or cancelled). */
export function isFinished(r: ExecutionRecord): boolean {
  return r.status === 'succeeded' || r.status === 'failed' || r.status === 'cancelled';
}

/** Whether an item is finished (done or failed; a parked item may be resumed). */
export function isItemFinished(i: ItemRecord): boolean {
  return i.status === 'done' || i.status === 'failed';
}

/** A key's rate-limit window. */
export interface RateWindow {
  start: number;
  count: number;
}

/**
 * All plain data of the server: what `snapshot()` copies and `restore()` puts back. Functions (tool, agent
 * and step handlers) live in the catalog, never here. The collections that list routes page through are
 * {@link IndexedMap}s: their indexes follow `set` and `delete`; after a write to a field an index reads (an
 * execution's or item's `status`, a workflow's `name`) call their `reindex(id)` (the store's
 * `executionChanged`/`itemChanged` do).
 */
export interface ServerData {
  accounts: Map<string, AccountRecord>;
  keys: Map<string, KeyRecord>;
  /** Key id by hash of the key's value. */
  keyByHash: Map<string, string>;
  /** By account, ordered by name. */
  workflows: IndexedMap<WorkflowRecord, string>;
  /** By account, oldest first. */
  schedules: IndexedMap<ScheduleRecord>;
  /** By id; oldest first in insertion order; indexed by account, status and kind. */
  executions: IndexedMap<ExecutionRecord>;
  /** By id; indexed by company, building and status. */
  items: IndexedMap<ItemRecord>;
  windows: Map<string, RateWindow>;
}

/** The index of a company's items (`account/campus`), the prefix of its filtered indexes. */
export function companyIndex(account: string, campus: string): string {
  return `${account}/${campus}`;
}

/** The index of an account's executions with the filters given (the list route's `status` and `kind`). */
export function executionIndex(account: string, status?: string, kind?: string): string {
  return `${account}${status === undefined ? '' : `|s=${status}`}${kind === undefined ? '' : `|k=${kind}`}`;
}

/** The index of a company's items with the filters given (the list route's `building` and `status`). */
export function itemIndex(account: string, campus: string, building?: string, status?: string): string {
  return `${companyIndex(account, campus)}${building === undefined ? '' : `|b=${building}`}${status === undefined ? '' : `|s=${status}`}`;
}

/**
 * The same array of index names for the same fields, built once: a million records then share a handful of
 * arrays instead of holding four new strings each.
 */
class IndexNames {
  /** One level of maps per field, the names at the last: a lookup makes no key string (it ran on every write). */
  readonly #cache = new Map<string, unknown>();
  readonly #build: (f0: string, f1: string, f2: string, f3?: string) => readonly string[];

  constructor(build: (f0: string, f1: string, f2: string, f3?: string) => readonly string[]) {
    this.#build = build;
  }

  /** The names for three fields, or four (fixed parameters: no array is made per call). */
  of(f0: string, f1: string, f2: string, f3?: string): readonly string[] {
    const level = IndexNames.#level(IndexNames.#level(this.#cache, f0), f1);
    const last = f3 === undefined ? level : IndexNames.#level(level, f2);
    const field = f3 === undefined ? f2 : f3;
    let names = last.get(field) as readonly string[] | undefined;
    if (!names) last.set(field, (names = this.#build(f0, f1, f2, f3)));
    return names;
  }

  static #level(level: Map<string, unknown>, field: string): Map<string, unknown> {
    let next = level.get(field) as Map<string, unknown> | undefined;
    if (!next) level.set(field, (next = new Map()));
    return next;
  }
}

/** Names in the order `localeCompare` gives, ties broken by code units (the keys of an index are unique). */
function byName(a: string, b: string): number {
  return a.localeCompare(b) || (a < b ? -1 : a > b ? 1 : 0);
}

const executionNames = new IndexNames((account, status, kind) => [
  executionIndex(account),
  executionIndex(account, status),
  executionIndex(account, undefined, kind),
  executionIndex(account, status, kind),
]);

const itemNames = new IndexNames((account, campus, building, status) => [
  itemIndex(account!, campus!),
  itemIndex(account!, campus!, building),
  itemIndex(account!, campus!, undefined, status),
  itemIndex(account!, campus!, building, status),
]);

/** An empty data set. */
export function emptyData(): ServerData {
  return {
    accounts: new Map(),
    keys: new Map(),
    keyByHash: new Map(),
    workflows: new IndexedMap<WorkflowRecord, string>({ orderOf: (w) => w.name, order: byName, indexesOf: (w) => [w.account] }),
    schedules: new IndexedMap<ScheduleRecord>({ orderOf: (_, seq) => seq, order: bySeq, indexesOf: (s) => [s.account] }),
    executions: new IndexedMap<ExecutionRecord>({ orderOf: (_, seq) => seq, order: bySeq, indexesOf: (r) => executionNames.of(r.account, r.status, r.kind) }),
    items: new IndexedMap<ItemRecord>({ orderOf: (_, seq) => seq, order: bySeq, indexesOf: (i) => itemNames.of(i.account, i.campus, i.building, i.status) }),
    windows: new Map(),
  };
}

/**
 * A deep copy of the data, for snapshots: the indexed collections cloned wholesale (their maps and index arrays
 * copied natively), the rest record by record with the shape of each known (linear, with no serialization in
 * between; `structuredClone` of a million executions took 25 s). What no server code
 * changes after it is written is shared, not copied (structural sharing): a finished execution whole (with its
 * trace) and a finished item, and the `input`, `content`, `error` of an unfinished execution, a span's attributes, a schedule's `input`.
 * Code that changes a finished execution or item must replace the record, never write to it.
 */
export function copyData(data: ServerData): ServerData {
  const out = emptyData();
  out.workflows = data.workflows.clone((w) => ({ ...w, tasks: w.tasks.map((t) => ({ ...t })) }));
  out.schedules = data.schedules.clone((s) => ({ ...s, target: { ...s.target } }));
  out.executions = data.executions.clone((r) => (isFinished(r) ? r : { ...r, spans: r.spans.map((sp) => ({ ...sp })) }));
  out.items = data.items.clone((i) => (isItemFinished(i) ? i : { ...i }));
  for (const [name, a] of data.accounts) {
    const companies = new Map<string, CompanyRecord>();
    for (const [slug, c] of a.companies) {
      const buildings = new Map<string, BuildingRecord>();
      for (const [b, building] of c.buildings) buildings.set(b, { ...building, pipeline: building.pipeline.map((p) => ({ ...p })) });
      companies.set(slug, { ...c, buildings });
    }
    const connections = new Map<string, ConnectionRecord>();
    for (const [p, conn] of a.connections) connections.set(p, { ...conn });
    out.accounts.set(name, { ...a, wallet: { ...a.wallet }, connections, companies, rate_limit: { ...a.rate_limit } });
  }
  for (const [id, k] of data.keys) {
    out.keys.set(id, { ...k, fence_tools: k.fence_tools && [...k.fence_tools], fence_addresses: k.fence_addresses && [...k.fence_addresses] });
  }
  for (const [hash, id] of data.keyByHash) out.keyByHash.set(hash, id);
  for (const [key, w] of data.windows) out.windows.set(key, { ...w });
  return out;
}
