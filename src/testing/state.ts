import type { ConnectInfo, ErrorObject, ExecutionKind, ExecutionStatus, ItemKind, ItemSource, ItemStatus, Span, WorkflowTask } from '../generated/types.js';

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
  /** The first characters of the value, for listings (`ozk_AbCd…`). */
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
  /** Oldest first. */
  items: ItemRecord[];
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
}

/** A key's rate-limit window. */
export interface RateWindow {
  start: number;
  count: number;
}

/**
 * All plain data of the server: what `snapshot()` copies and `restore()` puts back. Functions (tool, agent
 * and step handlers) live in the catalog, never here.
 */
export interface ServerData {
  accounts: Map<string, AccountRecord>;
  keys: Map<string, KeyRecord>;
  /** Key id by hash of the key's value. */
  keyByHash: Map<string, string>;
  workflows: Map<string, WorkflowRecord>;
  schedules: Map<string, ScheduleRecord>;
  /** By id; oldest first in insertion order. */
  executions: Map<string, ExecutionRecord>;
  items: Map<string, ItemRecord>;
  windows: Map<string, RateWindow>;
}

/** An empty data set. */
export function emptyData(): ServerData {
  return {
    accounts: new Map(),
    keys: new Map(),
    keyByHash: new Map(),
    workflows: new Map(),
    schedules: new Map(),
    executions: new Map(),
    items: new Map(),
    windows: new Map(),
  };
}
