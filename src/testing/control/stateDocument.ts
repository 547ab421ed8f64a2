import type { Catalog, CatalogAgent, CatalogTool } from '../catalog.js';
import { toCatalogAgent, toCatalogTool } from '../catalog.js';
import { OzMockError } from '../errors.js';
import { isPlainObject } from '../plainObject.js';
import {
  emptyData,
  type AccountRecord,
  type BuildingRecord,
  type ConnectionRecord,
  type ExecutionRecord,
  type ItemRecord,
  type KeyRecord,
  type ScheduleRecord,
  type ServerData,
  type WorkflowRecord,
} from '../state.js';
import { declarationOf, declaredAgent, declaredTool } from './behaviour.js';
import { checkFixtureDocument, fixtureError, type FixtureAgent, type FixtureTool } from './fixtureFormat.js';
import { isoTime } from '../isoTime.js';

/** The `format` field of every state document. */
export const STATE_FORMAT = 'oz-mock-state';
/** The version of the state document this server writes and reads. */
export const STATE_VERSION = 1;

/** A tool or agent written in code: the document names it; the server that reads it must have it. */
export interface NativeEntry {
  readonly name: string;
  readonly native: true;
}

/** An account as the state document holds it. */
export interface StateAccount {
  readonly name: string;
  readonly tier: string;
  readonly wallet: { readonly balance_micros: number; readonly spent_micros: number };
  readonly rate_limit: { readonly limit: number; readonly window_ms: number };
  readonly connections: readonly ConnectionRecord[];
  readonly companies: ReadonlyArray<{ readonly slug: string; readonly buildings: readonly BuildingRecord[] }>;
}

/**
 * The whole state of a server as one JSON document (`GET /_oz/state`, `--state FILE`): every record, and the
 * catalog's declared tools and agents. Times are ms since the epoch.
 */
export interface OzStateDocument {
  readonly format: typeof STATE_FORMAT;
  readonly version: typeof STATE_VERSION;
  /** When it was written (RFC 3339, the server clock). */
  readonly saved_at: string;
  readonly accounts: readonly StateAccount[];
  readonly keys: readonly KeyRecord[];
  readonly workflows: readonly WorkflowRecord[];
  readonly schedules: readonly ScheduleRecord[];
  readonly executions: readonly ExecutionRecord[];
  readonly items: readonly ItemRecord[];
  readonly tools: ReadonlyArray<FixtureTool | NativeEntry>;
  readonly agents: ReadonlyArray<FixtureAgent | NativeEntry>;
}

function catalogEntries<T extends CatalogTool | CatalogAgent, D>(map: Map<string, T>): Array<D | NativeEntry> {
  return [...map.values()].map((entry) => (declarationOf(entry.handler) as D | undefined) ?? { name: entry.name, native: true });
}

/** The state document of a server's data and catalog. */
export function exportState(data: ServerData, catalog: Catalog, now: number): OzStateDocument {
  const copy = structuredClone({
    accounts: [...data.accounts.values()].map(
      (a): StateAccount => ({
        name: a.name,
        tier: a.tier,
        wallet: a.wallet,
        rate_limit: a.rate_limit,
        connections: [...a.connections.values()],
        companies: [...a.companies.values()].map((c) => ({ slug: c.slug, buildings: [...c.buildings.values()] })),
      }),
    ),
    keys: [...data.keys.values()],
    workflows: [...data.workflows.values()],
    schedules: [...data.schedules.values()],
    executions: [...data.executions.values()],
    items: [...data.items.values()],
  });
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    saved_at: isoTime(now),
    ...copy,
    tools: catalogEntries<CatalogTool, FixtureTool>(catalog.tools),
    agents: catalogEntries<CatalogAgent, FixtureAgent>(catalog.agents),
  };
}

function refuse(message: string): OzMockError {
  return new OzMockError(422, 'invalid_params', message);
}

const SECTIONS = ['accounts', 'keys', 'workflows', 'schedules', 'executions', 'items', 'tools', 'agents'] as const;

/** Fields each record must have, with the `typeof` each must be (`null` allowed where listed with `?`). */
const RECORD_FIELDS: Readonly<Record<(typeof SECTIONS)[number], Readonly<Record<string, string>>>> = {
  accounts: { name: 'string', tier: 'string', wallet: 'object', rate_limit: 'object', connections: 'array', companies: 'array' },
  keys: { id: 'string', account: 'string', kind: 'string', name: 'string', hash: 'string', preview: 'string', created_at: 'number', expires_at: 'number?', revoked_at: 'number?' },
  workflows: { id: 'string', account: 'string', name: 'string', tasks: 'array', created_at: 'number', updated_at: 'number' },
  schedules: { id: 'string', account: 'string', name: 'string', cron: 'string', timezone: 'string', target: 'object', input: 'object', enabled: 'boolean', next_run_at: 'number?', created_at: 'number' },
  executions: { id: 'string', account: 'string', kind: 'string', target: 'string', status: 'string', input: 'object', spans: 'array', created_at: 'number', updated_at: 'number', cost_micros: 'number' },
  items: { id: 'string', account: 'string', campus: 'string', building: 'string', title: 'string', body: 'string', step: 'string', status: 'string', attempt: 'number', paused: 'number', cost_micros: 'number', created_at: 'number', updated_at: 'number' },
  tools: { name: 'string' },
  agents: { name: 'string' },
};

function typeOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** Checks a state document's shape; throws 422 naming the first bad field. */
function checkShape(doc: unknown): asserts doc is OzStateDocument {
  if (!isPlainObject(doc) || doc.format !== STATE_FORMAT) {
    throw refuse(`Not an oz-mock state document: the field format must be "${STATE_FORMAT}" (was this file written by GET /_oz/state or --state?).`);
  }
  if (doc.version !== STATE_VERSION) throw refuse(`State format version ${String(doc.version)} is not readable here: this oz-mock reads version ${STATE_VERSION}.`);
  for (const section of SECTIONS) {
    const list = doc[section];
    if (!Array.isArray(list)) throw refuse(`State document: ${section} must be a list (the document is truncated or foreign).`);
    list.forEach((record, i) => {
      if (!isPlainObject(record)) throw refuse(`State document: ${section}[${i}] must be an object.`);
      for (const [field, type] of Object.entries(RECORD_FIELDS[section])) {
        const t = typeOf(record[field]);
        const ok = type.endsWith('?') ? t === type.slice(0, -1) || t === 'null' : t === type;
        if (!ok) throw refuse(`State document: ${section}[${i}].${field} must be ${type.replace('?', ' or null')}.`);
      }
    });
  }
}

const NO_WORLD = { hasAccount: () => false, hasCompany: () => false, hasKeyValue: () => false, hasTool: () => false, hasAgent: () => false, hasWorkflow: () => false };

/** Where native (code) tools, agents and step handlers come from when a document is read. */
export interface NativeCatalog {
  readonly tools: ReadonlyMap<string, CatalogTool>;
  readonly agents: ReadonlyMap<string, CatalogAgent>;
  readonly steps: Catalog['steps'];
}

/**
 * The data and catalog a state document describes. Throws 422 `invalid_params` for a foreign, truncated or
 * newer document, or one naming a native tool or agent this server does not have; nothing is changed.
 */
export function importState(doc: unknown, natives: NativeCatalog): { data: ServerData; catalog: Catalog } {
  checkShape(doc);
  const d = structuredClone(doc);
  const data = emptyData();
  for (const a of d.accounts) {
    const account: AccountRecord = {
      name: a.name,
      tier: a.tier,
      wallet: { ...a.wallet },
      rate_limit: { ...a.rate_limit },
      connections: new Map(a.connections.map((c) => [c.provider, c])),
      companies: new Map(a.companies.map((c) => [c.slug, { slug: c.slug, buildings: new Map(c.buildings.map((b) => [b.slug, b])) }])),
    };
    data.accounts.set(account.name, account);
  }
  for (const k of d.keys) {
    data.keys.set(k.id, k);
    data.keyByHash.set(k.hash, k.id);
  }
  for (const w of d.workflows) data.workflows.set(w.id, w);
  for (const s of d.schedules) data.schedules.set(s.id, s);
  for (const e of d.executions) data.executions.set(e.id, e);
  d.items.forEach((item, i) => {
    const company = data.accounts.get(item.account)?.companies.get(item.campus);
    if (!company) throw refuse(`State document: items[${i}] belongs to company ${item.campus} of account ${item.account}, which the document does not have.`);
    data.items.set(item.id, item);
  });
  const catalog: Catalog = { tools: new Map(), agents: new Map(), steps: new Map(natives.steps) };
  // Declared tools and agents are checked as a fixture document would be, each under its own index.
  for (const section of ['tools', 'agents'] as const) {
    d[section].forEach((entry, i) => {
      if ('native' in entry && entry.native === true) return;
      const problems = checkFixtureDocument({ [section]: [entry] }, NO_WORLD);
      if (problems.length) throw fixtureError(problems.map((p) => ({ ...p, path: p.path.replace(`${section}[0]`, `${section}[${i}]`) })), 'State document');
    });
  }
  const sections = [
    ['tools', 'tool', natives.tools, catalog.tools, (e: unknown) => toCatalogTool(declaredTool(e as FixtureTool))],
    ['agents', 'agent', natives.agents, catalog.agents, (e: unknown) => toCatalogAgent(declaredAgent(e as FixtureAgent))],
  ] as const;
  for (const [section, kind, native, into, declare] of sections) {
    d[section].forEach((entry, i) => {
      if (!('native' in entry && entry.native === true)) return void (into as Map<string, unknown>).set(entry.name, declare(entry));
      const found = native.get(entry.name);
      if (!found) throw refuse(`State document: ${section}[${i}] is the ${kind} ${entry.name}, written in code, which this server does not have.`);
      (into as Map<string, unknown>).set(entry.name, found);
    });
  }
  return { data, catalog };
}
