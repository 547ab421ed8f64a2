import { hashKey, keyKindOf, keyPreview, KEY_PREFIXES, newKeyValue } from './apiKeys.js';
import { IN_PROCESS_DOMAIN } from '../../core/shared/inProcessAddress.js';
import { stepKey, toCatalogAgent, toCatalogTool, type AgentDefinition, type Catalog, type PipelineStepDefinition, type ToolDefinition } from './catalog.js';
import type { ServerClock } from '../time/clock.js';
import { newId } from '../support/ids.js';
import { RetentionQueue, type RetentionLimits } from './retention.js';
import {
  isFinished,
  isItemFinished,
  type AccountRecord,
  type BuildingRecord,
  type CompanyRecord,
  type ConnectionRecord,
  type ExecutionRecord,
  type ItemRecord,
  type KeyKind,
  type ServerData,
  type Tier,
  type WorkflowRecord,
} from './state.js';
import type { WorkflowTask } from '../../generated/types.js';
import { isoTime } from '../support/isoTime.js';

const DAY_MS = 86_400_000;

/** The expiry choices of a key, in days (`null`: never). */
/** The expiries a key can have, in days (or never: `null`). */
export const KEY_EXPIRY_DAYS = [7, 30, 90, 180, 365] as const;

export type KeyExpiryDays = (typeof KEY_EXPIRY_DAYS)[number] | null;

/** Options of a new account. */
export interface AccountOptions {
  /** The account's name (what `svc_whoami` answers as `user`). */
  readonly name: string;
  /** Default `pro`. A `free` account has no company service (503 `not_enabled`). */
  readonly tier?: Tier;
  /** The wallet's opening balance in US dollars. Default 100. */
  readonly walletUsd?: number;
  /** Requests per window for each of the account's keys. Default: the server's `rateLimit`. */
  readonly rateLimit?: { readonly limit: number; readonly windowMs?: number };
}

/** Why a key value is refused: another key of the server has it (the default world or a session). */
export const KEY_IN_USE = 'that key value is in use already in this server (the default world or a session)';

/** Options of a new key. */
export interface KeyOptions {
  /** The account the key opens. */
  readonly account: string;
  /** `platform` (`ozk_`, default), or a legacy `models` (`sk-mdl-`) or `proxy` (`sk-prx-`) key. */
  readonly kind?: KeyKind;
  /** The key's name (its label in `svc_whoami`). Default `"test key"`. */
  readonly name?: string;
  /** A fixed value, with the kind's prefix. Default: a new random value. */
  readonly apiKey?: string;
  /** @deprecated the old name of `apiKey`. */
  readonly key?: string;
  /** Expiry in days: 7, 30, 90, 180 or 365, or `null` (default) for never. */
  readonly expiresInDays?: KeyExpiryDays;
  /** Fence by tool: on the MCP server the key sees and calls only these tools. */
  readonly tools?: readonly string[];
  /** Fence by address: requests from any other client address answer 401. */
  readonly addresses?: readonly string[];
}

/** A key just created: its value is shown this once; the server keeps only its hash. */
export interface CreatedKey {
  readonly id: string;
  /** The key's value. */
  readonly apiKey: string;
  /** @deprecated the old name of `apiKey`. */
  readonly key: string;
  readonly name: string;
  readonly account: string;
  readonly tier: Tier;
  /** RFC 3339, or `null` for a key that never expires. */
  readonly expires_at: string | null;
}

/** A building of a new company. */
export interface BuildingOptions {
  readonly slug: string;
  /** `cloud` walks items through `pipeline`; `local`'s node picks them up (they wait at intake). */
  readonly kind: 'cloud' | 'local';
  /** The pipeline of a cloud building: step ids, or steps with their office's handler. */
  readonly pipeline?: ReadonlyArray<string | PipelineStepDefinition>;
}

/** Options of a new company. */
export interface CompanyOptions {
  readonly account: string;
  /** The company's slug (the `{campus}` of its routes). */
  readonly slug: string;
  readonly buildings?: readonly BuildingOptions[];
}

/** Options of a new stored workflow. */
export interface WorkflowOptions {
  readonly account: string;
  readonly name: string;
  readonly description?: string | null;
  readonly tasks: readonly WorkflowTask[];
}

/** The server's data and catalog, with the operations on them that seeding and handlers share. */
export class Store {
  #current: ServerData;
  readonly #finishedExecutions: RetentionQueue<ExecutionRecord>;
  readonly #finishedItems: RetentionQueue<ItemRecord>;
  readonly #defaultRateLimit: { limit: number; window_ms: number };

  constructor(
    data: ServerData,
    public catalog: Catalog,
    readonly clock: ServerClock,
    defaultRateLimit: { limit: number; window_ms: number },
    retention: RetentionLimits = { executions: Infinity, items: Infinity },
  ) {
    this.#defaultRateLimit = defaultRateLimit;
    this.#current = data;
    this.#finishedExecutions = new RetentionQueue(retention.executions, isFinished);
    this.#finishedItems = new RetentionQueue(retention.items, isItemFinished);
    this.data = data;
  }

  /**
   * Whether a key's hash is held by another world of the server (the default world or another session): set by
   * the server, which knows its worlds. Key values are unique across the server, so a key names one world.
   */
  keyHeldElsewhere: (hash: string) => boolean = () => false;

  /** Whether a key's hash is in use in this world or anywhere else in the server. */
  keyInUse(hash: string): boolean {
    return this.data.keyByHash.has(hash) || this.keyHeldElsewhere(hash);
  }

  /** The server's data. Setting it (a reset, a restore, an import) starts the retention over from it. */
  get data(): ServerData {
    return this.#current;
  }

  set data(data: ServerData) {
    this.#current = data;
    this.#finishedExecutions.rebuild(data.executions);
    this.#finishedItems.rebuild(data.items);
  }

  /**
   * After a write to an execution's `status`: moves it to the indexes of its new status and, once it finished,
   * into the retention (which may drop the earliest finished beyond the limit).
   */
  executionChanged(record: ExecutionRecord): void {
    const executions = this.#current.executions;
    if (executions.reindex(record.id, record)) this.#finishedExecutions.noteChanged(executions, record.id, record);
  }

  /** After a write to an item's `status` (or `building`): as {@link Store.executionChanged}, for items. */
  itemChanged(item: ItemRecord): void {
    const items = this.#current.items;
    if (items.reindex(item.id, item)) this.#finishedItems.noteChanged(items, item.id, item);
  }

  /** An account by name, or throws. */
  account(name: string): AccountRecord {
    const account = this.data.accounts.get(name);
    if (!account) throw new Error(`No account named ${name}`);
    return account;
  }

  addAccount(options: AccountOptions): AccountRecord {
    if (this.data.accounts.has(options.name)) throw new Error(`Account ${options.name} exists already`);
    const account: AccountRecord = {
      name: options.name,
      tier: options.tier ?? 'pro',
      wallet: { balance_micros: Math.round((options.walletUsd ?? 100) * 1e6), spent_micros: 0 },
      connections: new Map(),
      companies: new Map(),
      rate_limit: options.rateLimit
        ? { limit: options.rateLimit.limit, window_ms: options.rateLimit.windowMs ?? this.#defaultRateLimit.window_ms }
        : { ...this.#defaultRateLimit },
    };
    this.data.accounts.set(account.name, account);
    return account;
  }

  addKey(options: KeyOptions): CreatedKey {
    const account = this.account(options.account);
    const kind = options.kind ?? 'platform';
    if (options.apiKey !== undefined && options.key !== undefined) throw new Error('Give apiKey (or its old name key), not both');
    const value = options.apiKey ?? options.key ?? newKeyValue(kind);
    if (keyKindOf(value) !== kind) throw new Error(`A ${kind} key starts with ${KEY_PREFIXES[kind]}`);
    const days = options.expiresInDays ?? null;
    if (days !== null && !KEY_EXPIRY_DAYS.includes(days)) throw new Error('expiresInDays is one of 7, 30, 90, 180, 365 or null');
    const hash = hashKey(value);
    if (this.keyInUse(hash)) throw new Error(`${options.apiKey !== undefined ? 'apiKey' : 'key'}: ${KEY_IN_USE}`);
    const now = this.clock.now();
    const id = newId('key');
    this.data.keys.set(id, {
      id,
      account: account.name,
      kind,
      name: options.name ?? 'test key',
      hash,
      preview: keyPreview(kind, value),
      created_at: now,
      expires_at: days === null ? null : now + days * DAY_MS,
      revoked_at: null,
      fence_tools: options.tools ? [...options.tools] : null,
      fence_addresses: options.addresses ? [...options.addresses] : null,
    });
    this.data.keyByHash.set(hash, id);
    return {
      id,
      apiKey: value,
      key: value,
      name: options.name ?? 'test key',
      account: account.name,
      tier: account.tier,
      expires_at: days === null ? null : isoTime(now + days * DAY_MS),
    };
  }

  /** Revokes a key (by id or value): it keeps working for the key cache's time, then answers 401. */
  revokeKey(idOrValue: string): void {
    const id = this.data.keys.has(idOrValue) ? idOrValue : this.data.keyByHash.get(hashKey(idOrValue));
    const key = id ? this.data.keys.get(id) : undefined;
    if (!key) throw new Error('No such key');
    key.revoked_at ??= this.clock.now();
  }

  addCompany(options: CompanyOptions): CompanyRecord {
    const account = this.account(options.account);
    if (account.companies.has(options.slug)) throw new Error(`Company ${options.slug} exists already`);
    const company: CompanyRecord = { slug: options.slug, buildings: new Map() };
    account.companies.set(company.slug, company);
    for (const b of options.buildings ?? []) this.addBuilding(options.account, options.slug, b);
    return company;
  }

  addBuilding(accountName: string, campus: string, options: BuildingOptions): BuildingRecord {
    const company = this.account(accountName).companies.get(campus);
    if (!company) throw new Error(`No company ${campus} in account ${accountName}`);
    const pipeline = (options.pipeline ?? []).map((s) => (typeof s === 'string' ? { id: s } : s));
    if (options.kind === 'cloud' && pipeline.length === 0) throw new Error('A cloud building needs a pipeline');
    const building: BuildingRecord = { slug: options.slug, kind: options.kind, pipeline: pipeline.map((s) => ({ id: s.id })) };
    company.buildings.set(building.slug, building);
    for (const s of pipeline) {
      if (s.handler) this.catalog.steps.set(stepKey(accountName, campus, building.slug, s.id), s.handler);
    }
    return building;
  }

  addTool(def: ToolDefinition): void {
    this.catalog.tools.set(def.name, toCatalogTool(def));
  }

  addAgent(def: AgentDefinition): void {
    this.catalog.agents.set(def.name, toCatalogAgent(def));
  }

  addWorkflow(options: WorkflowOptions): WorkflowRecord {
    this.account(options.account);
    if (this.workflowByName(options.account, options.name)) throw new Error(`Workflow ${options.name} exists already in account ${options.account}`);
    const now = this.clock.now();
    const record: WorkflowRecord = {
      id: newId('wfl'),
      account: options.account,
      name: options.name,
      description: options.description ?? null,
      tasks: options.tasks.map((t) => ({ ...t })),
      created_at: now,
      updated_at: now,
    };
    this.data.workflows.set(record.id, record);
    return record;
  }

  /** A stored workflow of an account by name. */
  workflowByName(account: string, name: string): WorkflowRecord | undefined {
    return this.data.workflows.find(account, name);
  }

  /** Links (or re-links) an account connection. */
  linkConnection(
    account: string,
    provider: string,
    method: ConnectionRecord['method'] = 'oauth',
    status: ConnectionRecord['status'] = 'linked',
  ): ConnectionRecord {
    const record: ConnectionRecord = { provider, method, status, url: `https://dashboard.${IN_PROCESS_DOMAIN}/connections/${encodeURIComponent(provider)}` };
    this.account(account).connections.set(provider, record);
    return record;
  }

  /** Removes an account connection; answers whether there was one. */
  unlinkConnection(account: string, provider: string): boolean {
    return this.account(account).connections.delete(provider);
  }

  /** Draws a metered amount from the account's wallet. */
  charge(account: AccountRecord, micros: number): void {
    account.wallet.balance_micros -= micros;
    account.wallet.spent_micros += micros;
  }
}
