import { hashKey } from '../apiKeys.js';
import { copyCatalog } from '../catalog.js';
import { nextCronRun, parseCron } from '../cron.js';
import { newId } from '../ids.js';
import type { ServerCore } from '../serverCore.js';
import { copyData, type ScheduleRecord } from '../state.js';
import type { KeyExpiryDays } from '../store.js';
import { declaredAgent, declaredTool } from './behaviour.js';
import { checkFixtureExpansion } from './fixtureExpansion.js';
import { checkFixtureDocument, fixtureError, parseFixtureText, type FixtureDocument, type FixtureWorld } from './fixtureFormat.js';

/** How much a fixture document added. */
export interface FixtureSummary {
  readonly accounts: number;
  readonly keys: number;
  readonly companies: number;
  readonly tools: number;
  readonly agents: number;
  readonly workflows: number;
  readonly schedules: number;
  readonly connections: number;
}

function worldOf(core: ServerCore): FixtureWorld {
  const { store } = core;
  return {
    hasAccount: (name) => store.data.accounts.has(name),
    hasCompany: (account, slug) => store.data.accounts.get(account)?.companies.has(slug) === true,
    hasKeyValue: (value) => store.data.keyByHash.has(hashKey(value)),
    hasTool: (name) => store.catalog.tools.has(name),
    hasAgent: (name) => store.catalog.agents.has(name),
    hasWorkflow: (account, name) => store.workflowByName(account, name) !== undefined,
  };
}

/**
 * Adds a fixture document (an object, or its JSON or YAML text) to the server's state. The whole document is
 * checked first: any problem throws 422 `invalid_params` naming the field's path, and nothing is added.
 * `source` (a file name) prefixes the message.
 */
export function loadFixtures(core: ServerCore, input: FixtureDocument | string, source?: string): FixtureSummary {
  const doc = typeof input === 'string' ? parseFixtureText(input) : (input as unknown);
  checkFixtureExpansion(doc, source);
  const problems = checkFixtureDocument(doc, worldOf(core));
  if (problems.length) throw fixtureError(problems, source);
  const d = doc as FixtureDocument;
  const { store } = core;
  // Checked whole above; should a write still throw, the state goes back to what it was.
  const before = { data: copyData(store.data), catalog: copyCatalog(store.catalog) };
  const armed: ScheduleRecord[] = [];
  try {
    for (const a of d.accounts ?? []) {
      store.addAccount({
        name: a.name,
        ...(a.tier !== undefined ? { tier: a.tier } : {}),
        ...(a.wallet_usd !== undefined ? { walletUsd: a.wallet_usd } : {}),
        ...(a.rate_limit !== undefined ? { rateLimit: { limit: a.rate_limit, windowMs: 60_000 } } : {}),
      });
    }
    for (const t of d.tools ?? []) store.addTool(declaredTool(t));
    for (const a of d.agents ?? []) store.addAgent(declaredAgent(a));
    for (const k of d.keys ?? []) {
      store.addKey({
        account: k.account,
        ...(k.kind ? { kind: k.kind } : {}),
        ...(k.name !== undefined ? { name: k.name } : {}),
        ...(k.value !== undefined ? { key: k.value } : {}),
        expiresInDays: (k.expires_in_days ?? null) as KeyExpiryDays,
        ...(k.tools ? { tools: k.tools } : {}),
        ...(k.addresses ? { addresses: k.addresses } : {}),
      });
    }
    for (const c of d.companies ?? []) {
      store.addCompany({ account: c.account, slug: c.slug, buildings: (c.buildings ?? []).map((b) => ({ slug: b.slug, kind: b.kind, pipeline: b.pipeline ?? [] })) });
    }
    for (const c of d.connections ?? []) store.linkConnection(c.account, c.provider, c.method, c.status);
    for (const w of d.workflows ?? []) store.addWorkflow({ account: w.account, name: w.name, description: w.description ?? null, tasks: w.tasks });
    const now = core.clock.now();
    for (const s of d.schedules ?? []) {
      const timezone = s.timezone ?? 'UTC';
      const enabled = s.enabled !== false;
      const record: ScheduleRecord = {
        id: newId('sch'),
        account: s.account,
        name: s.name,
        cron: s.cron.trim(),
        timezone,
        target: { kind: s.target.kind, name: s.target.name },
        input: { ...(s.input ?? {}) },
        enabled,
        next_run_at: enabled ? nextCronRun(parseCron(s.cron)!, timezone, now) : null,
        created_at: now,
      };
      store.data.schedules.set(record.id, record);
      armed.push(record);
    }
  } catch (err) {
    store.data = before.data;
    store.catalog = before.catalog;
    throw err;
  }
  for (const s of armed) core.scheduler.arm(s);
  const n = (list: readonly unknown[] | undefined) => list?.length ?? 0;
  return {
    accounts: n(d.accounts),
    keys: n(d.keys),
    companies: n(d.companies),
    tools: n(d.tools),
    agents: n(d.agents),
    workflows: n(d.workflows),
    schedules: n(d.schedules),
    connections: n(d.connections),
  };
}
