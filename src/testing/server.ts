import type { Item } from '../generated/types.js';
import { newKeyValue } from './state/apiKeys.js';
import { createRequestHandler, type RequestHandler } from './pipeline/routing.js';
import type { OzServer, OzSnapshot } from './public/ozServer.js';
import { copyCatalog, type Catalog } from './state/catalog.js';
import { assertCodeGeneration } from './contract/codeGeneration.js';
import { newAdminToken, isAdminTokenShape } from './control/adminToken.js';
import { writeFileAtomic } from './support/atomicFile.js';
import { withControlPlane } from './control/controlPlane.js';
import type { FixtureDocument } from './fixtures/fixtureFormat.js';
import { loadFixtures } from './fixtures/fixtures.js';
import { exportState, importState } from './fixtures/stateDocument.js';
import { nextCronRun, parseCron } from './support/cron.js';
import { OzMockError } from './contract/errors.js';
import { ServerClock } from './time/clock.js';
import { Dashboard, DASHBOARD_PATH, withDashboard } from './mounts/dashboard.js';
import { seedDemo, type DemoKeys } from './state/demoSeed.js';
import { executionView, usd } from './state/executionViews.js';
import { serveInProcess } from './mounts/fetchMount.js';
import { itemView } from './state/itemViews.js';
import { HANDLERS } from './handlers/index.js';
import { listenHttp, type HttpListener } from './mounts/httpMount.js';
import { mswHandlers } from './mounts/mswMount.js';
import { resolveOptions, type OzServerOptions } from './public/options.js';
import { createServerParts } from './parts/serverParts.js';
import { copyData, emptyData, isItemFinished, type BuildingRecord, type ItemRecord, type ServerData } from './state/state.js';
import { Store } from './state/store.js';

interface SnapshotData extends OzSnapshot {
  readonly data: ServerData;
  readonly catalog: Catalog;
}


/**
 * An item to change, as a record of its own: a finished item may be shared with snapshots (see `copyData`),
 * so it is replaced by a copy before it is written to.
 */
function requireItem(data: ServerData, id: string): ItemRecord {
  const item = data.items.get(id);
  if (!item) throw new Error(`No item ${id}`);
  if (!isItemFinished(item)) return item;
  const own = { ...item };
  data.items.set(id, own);
  return own;
}

/**
 * Creates a fresh, isolated in-memory Oz server: the whole API of openapi.json with the service's behaviour,
 * seeded with the contract's demo account unless `seed: 'empty'`.
 *
 * @example
 * ```ts
 * const server = createOzServer();
 * const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
 * ```
 *
 * @throws OzUnsupportedRuntimeError on a runtime that forbids `new Function` (Cloudflare Workers).
 */
export function createOzServer(options: OzServerOptions = {}): OzServer {
  assertCodeGeneration();
  const resolved = resolveOptions(options);
  const clock = new ServerClock(options.clock);
  const keys: DemoKeys = {
    apiKey: options.apiKey ?? newKeyValue('platform'),
    modelsKey: options.modelsKey ?? newKeyValue('models'),
    proxyKey: options.proxyKey ?? newKeyValue('proxy'),
    otherApiKey: options.otherApiKey ?? newKeyValue('platform'),
  };
  const store = new Store(emptyData(), { tools: new Map(), agents: new Map(), steps: new Map() }, clock, resolved.rateLimit, resolved.retention);
  // The server's parts, wired once into one plain object: each consumer takes the port it declares.
  const parts = createServerParts(resolved, clock, store);

  if (options.adminToken !== undefined && options.adminToken !== false && !isAdminTokenShape(options.adminToken)) {
    throw new TypeError('adminToken must be ozadm_ followed by 32 letters or digits');
  }
  const adminToken = options.adminToken === false ? null : (options.adminToken ?? newAdminToken());
  store.data = emptyData();
  store.catalog = { tools: new Map(), agents: new Map(), steps: new Map() };
  if (resolved.seed === 'demo') seedDemo(store, keys);
  const fixtureDocuments = options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures];
  for (const doc of fixtureDocuments as ReadonlyArray<FixtureDocument | string>) loadFixtures(parts, doc);

  const dashboard = new Dashboard(`${resolved.url}${DASHBOARD_PATH}`, () => store, clock);
  let handler: RequestHandler = withDashboard(createRequestHandler(parts, HANDLERS), dashboard);
  // What reset() returns to; set once the seed function ran, below.
  let baselineSnapshot: OzSnapshot | null = null;
  let seedCatalog: Catalog = copyCatalog(store.catalog);
  /** Schedules whose time passed while the state was elsewhere wait for their next occurrence. */
  const skipPastSchedules = () => {
    const now = clock.now();
    for (const s of store.data.schedules.values()) {
      if (s.next_run_at === null || s.next_run_at > now) continue;
      const cron = parseCron(s.cron);
      s.next_run_at = s.enabled && cron ? nextCronRun(cron, s.timezone, now) : null;
      parts.scheduler.arm(s);
    }
  };
  const listeners = new Set<HttpListener>();
  const handle = (request: Request) => serveInProcess(handler, resolved, request);

  const touchItem = (item: ItemRecord): Item => {
    item.updated_at = clock.now();
    const view = itemView(item);
    store.itemChanged(item);
    return view;
  };

  const server: OzServer = {
    adminToken,
    url: resolved.url,
    mcpUrl: resolved.mcpUrl,
    apiKey: keys.apiKey,
    keys,
    clock,
    dashboardUrl: dashboard.url,
    dashboard,
    journal: parts.journal,
    faults: parts.faults,
    fetch: (input, init) => {
      if (input instanceof Request && init === undefined) return handle(input);
      return serveInProcess(handler, resolved, new Request(input, init), 'fetch', input instanceof Request || init?.signal != null);
    },
    handle,
    handlers: (handlerOptions) => mswHandlers(handler, resolved, handlerOptions),
    async listen(listenOptions = {}) {
      const host = listenOptions.host ?? '127.0.0.1';
      const api = await listenHttp(handler, 'api', listenOptions.port ?? 0, host);
      const mcp = await listenHttp(handler, 'mcp', listenOptions.mcpPort ?? 0, host).catch(async (err: unknown) => {
        await api.close();
        throw err;
      });
      listeners.add(api).add(mcp);
      const hostPart = host.includes(':') ? `[${host}]` : host;
      return {
        url: `http://${hostPart}:${api.port}`,
        mcpUrl: `http://${hostPart}:${mcp.port}${new URL(resolved.mcpUrl).pathname}`,
        port: api.port,
        mcpPort: mcp.port,
        dashboardUrl: `http://${hostPart}:${api.port}${DASHBOARD_PATH}`,
        close: async () => {
          listeners.delete(api);
          listeners.delete(mcp);
          await Promise.all([api.close(), mcp.close()]);
        },
      };
    },
    onResponse: (listener) => parts.events.on('response', listener),
    idle: () => parts.work.idle(clock),
    reset() {
      server.restore(baselineSnapshot!);
      skipPastSchedules();
      dashboard.reset();
      parts.journal.clear();
      parts.faults.clear();
      parts.idempotency.clear();
      parts.walker.clearFailures();
    },
    baseline() {
      baselineSnapshot = server.snapshot();
    },
    loadFixtures: (doc) => loadFixtures(parts, doc),
    exportState: () => exportState(store.data, store.catalog, clock.now()),
    importState(doc) {
      // Code tools and agents come from this server: the seed's, and whatever was added since.
      const natives = { tools: new Map([...seedCatalog.tools, ...store.catalog.tools]), agents: new Map([...seedCatalog.agents, ...store.catalog.agents]), steps: store.catalog.steps };
      const { data, catalog } = importState(doc, natives);
      const snap: SnapshotData = { __ozSnapshot: true, data, catalog };
      server.restore(snap);
      skipPastSchedules();
    },
    async saveState(path = options.stateFile) {
      if (path === undefined) throw new OzMockError(409, 'no_state_file', 'No state file: start oz-mock with --state FILE (or give createOzServer a stateFile).');
      await writeFileAtomic(path, `${JSON.stringify(server.exportState(), null, 2)}\n`);
      return path;
    },
    snapshot() {
      if (parts.work.busy(clock)) throw new Error('snapshot() while work is in flight: await server.idle() first.');
      const snap: SnapshotData = { __ozSnapshot: true, data: copyData(store.data), catalog: copyCatalog(store.catalog) };
      return snap;
    },
    restore(snapshot) {
      const snap = snapshot as SnapshotData;
      parts.lifetime.renew();
      store.data = copyData(snap.data);
      store.catalog = copyCatalog(snap.catalog);
      parts.idempotency.clear();
      parts.walker.resumeAll();
      parts.scheduler.armAll();
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.close()));
      listeners.clear();
      parts.lifetime.renew();
      clock.cancelAll();
    },

    addAccount: (o) => void store.addAccount(o),
    addKey: (o) => store.addKey(o),
    revokeKey: (k) => store.revokeKey(k),
    addCompany: (o) => void store.addCompany(o),
    addBuilding: (account, campus, b): void => void (store.addBuilding(account, campus, b) satisfies BuildingRecord),
    addTool: (t) => store.addTool(t),
    addAgent: (a) => store.addAgent(a),
    addWorkflow: (w) => void store.addWorkflow(w),
    linkConnection: (account, provider, o = {}) => void store.linkConnection(account, provider, o.method, o.status),
    getExecution: (id) => {
      const r = store.data.executions.get(id);
      return r ? executionView(r) : undefined;
    },
    wallet: (account) => {
      const w = store.account(account).wallet;
      return { balance_usd: usd(w.balance_micros), spent_usd: usd(w.spent_micros) };
    },
    items: {
      get: (id) => {
        const item = store.data.items.get(id);
        return item ? itemView(item) : undefined;
      },
      park: (id, reason) => {
        const item = requireItem(store.data, id);
        Object.assign(item, { step: 'parked', status: 'parked', parked_reason: reason });
        return touchItem(item);
      },
      pause: (id) => {
        const item = requireItem(store.data, id);
        item.paused = 1;
        return touchItem(item);
      },
      resume: (id) => {
        const item = requireItem(store.data, id);
        item.paused = 0;
        const view = touchItem(item);
        parts.walker.schedule(item);
        return view;
      },
      update: (id, patch) => {
        const item = requireItem(store.data, id);
        Object.assign(item, patch);
        const view = touchItem(item);
        parts.walker.schedule(item);
        return view;
      },
      failStep: (failure) => parts.walker.failStep(failure),
    },
  };
  handler = withControlPlane(handler, { server: parts, items: server.items, dashboard, reset: () => server.reset(), baseline: () => server.baseline(), idle: () => server.idle(), loadFixtures: (d) => server.loadFixtures(d), exportState: () => server.exportState(), importState: (d) => server.importState(d), saveState: () => server.saveState(), addKey: (o) => server.addKey(o), revokeKey: (k) => server.revokeKey(k) }, adminToken);
  if (typeof options.seed === 'function') options.seed(server);
  seedCatalog = copyCatalog(store.catalog);
  baselineSnapshot = server.snapshot();
  return server;
}

