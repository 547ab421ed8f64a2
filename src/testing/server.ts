import type { Item } from '../generated/types.js';
import { newKeyValue } from './state/apiKeys.js';
import type { RequestHandler } from './pipeline/serverStep.js';
import { serverHandler, type ServerScope } from './serverChain.js';
import type { ListenOptions, OzItemControls, OzListener, OzServer, OzSnapshot } from './public/ozServer.js';
import { copyCatalog, type Catalog } from './state/catalog.js';
import { newAdminToken, isAdminTokenShape } from './control/adminToken.js';
import { writeFileAtomic } from './support/atomicFile.js';
import type { ControlTarget } from './control/controlPlane.js';
import type { FixtureDocument } from './fixtures/fixtureFormat.js';
import { loadFixtures } from './fixtures/fixtures.js';
import { exportState, importState } from './fixtures/stateDocument.js';
import { nextCronRun, parseCron } from './support/cron.js';
import { OzMockError } from './contract/errors.js';
import { ServerClock } from './time/clock.js';
import { Dashboard, DASHBOARD_PATH } from './mounts/dashboard.js';
import { seedDemo, type DemoKeys } from './state/demoSeed.js';
import { executionView, usd } from './state/executionViews.js';
import { serveInProcess } from './mounts/fetchMount.js';
import { markEmbeddedServerFetch } from '../core/shared/runtime.js';
import { itemView } from './state/itemViews.js';
import { listenHttp, type HttpListener } from './mounts/httpMount.js';
import { mswHandlers } from './mounts/mswMount.js';
import { resolveServerOptions, type OzServerOptions } from './public/options.js';
import { createServerParts, type ServerParts } from './parts/serverParts.js';
import { resumeRuns } from './runs/runPlans.js';
import { copyData, emptyData, isItemFinished, type BuildingRecord, type ItemRecord, type ServerData } from './state/state.js';
import { Store } from './state/store.js';
import { fitImportedKeys } from './state/importedKeys.js';
import { OzServerClosedError } from './contract/serverClosedError.js';
import type { OzResetOptions, OzSessionOptions } from './public/ozServer.js';
import { keyControls } from './state/keyControls.js';
import { connectionControls } from './state/connectionControls.js';
import { sessionControls } from './sessions/session.js';
import { SessionRegistry, type BaselineCopy } from './sessions/sessionRegistry.js';
import { unusedOf } from './pipeline/stubs/unused.js';
import type { StubData } from './pipeline/stubs/stubs.js';
import type { ResolvedServerOptions } from './public/options.js';

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

 */
export function createOzServer(options: OzServerOptions = {}): OzServer {
  const resolved = resolveServerOptions(options);
  const root = buildWorld(options, resolved, null);
  const { server, parts } = root;
  const sessions = new SessionRegistry(
    resolved.maxSessions,
    (start, o) => {
      const clockOptions = { start: o.clock?.start ?? parts.clock.now(), frozen: o.clock?.frozen ?? parts.clock.frozen };
      const world = buildWorld({ clock: clockOptions, adminToken: false, seed: 'empty' }, resolved, start);
      // A session's requests count in the server's coverage too: the server's report is the whole run's.
      world.parts.coverage.countsAlsoIn(parts.coverage);
      const own = world.parts.store;
      own.keyHeldElsewhere = (hash) => parts.store.data.keyByHash.has(hash) || sessions.holdsKey(hash, own);
      const fixtures = o.fixtures === undefined ? [] : Array.isArray(o.fixtures) ? o.fixtures : [o.fixtures];
      try {
        for (const doc of fixtures as ReadonlyArray<FixtureDocument | string>) world.server.loadFixtures(doc);
      } catch (err) {
        void world.server.close();
        throw err;
      }
      world.server.baseline();
      return {
        controls: sessionControls(world.server),
        parts: world.parts,
        dashboard: world.dashboard,
        target: world.target,
        close: () => world.server.close(),
      };
    },
    () => root.baselineCopy(),
    resolved.seed === 'demo' ? server.apiKey : null,
  );
  parts.store.keyHeldElsewhere = (hash) => sessions.holdsKey(hash, parts.store);
  const closeRoot = server.close;
  // The default world is built as any world is; only it makes sessions, and closing it ends them.
  Object.assign(server, {
    session: (o?: OzSessionOptions) => sessions.create(o),
    close: async () => {
      await sessions.closeAll();
      await closeRoot();
    },
  });
  // Only the default world has the control plane and the sessions: its chain sees every request of a port.
  root.serve({ control: root.adminToken === null ? null : { target: { ...root.target, sessions }, token: root.adminToken }, sessions });
  if (typeof options.seed === 'function') options.seed(server);
  root.captureSeed();
  return server;
}

/** One world: a server's state, clock, journal, faults, stubs and handler (the default session, or a session). */
interface World {
  readonly server: OzServer;
  readonly parts: ServerParts;
  readonly dashboard: Dashboard;
  readonly target: ControlTarget;
  readonly adminToken: string | null;
  /** Serves the world's mounts with the chain for `scope` (a world starts with no control plane and no sessions). */
  serve(scope: ServerScope): void;
  /** A copy of the baseline `reset()` returns to. */
  baselineCopy(): BaselineCopy;
  /** The state after seeding is the baseline (and its catalog holds the natives `importState` keeps). */
  captureSeed(): void;
}

/** The keys a world answers to: the options' or new ones. */
function worldKeys(options: OzServerOptions): DemoKeys {
  return {
    apiKey: options.apiKey ?? newKeyValue('platform'),
    modelsKey: options.modelsKey ?? newKeyValue('models'),
    proxyKey: options.proxyKey ?? newKeyValue('proxy'),
    otherApiKey: options.otherApiKey ?? newKeyValue('platform'),
  };
}

/** The control plane's token: the options' (checked), a new one, or none (`adminToken: false`). */
function worldAdminToken(options: OzServerOptions): string | null {
  if (options.adminToken !== undefined && options.adminToken !== false && !isAdminTokenShape(options.adminToken)) {
    throw new TypeError('adminToken must be ozadm_ followed by 32 letters or digits');
  }
  return options.adminToken === false ? null : (options.adminToken ?? newAdminToken());
}

/** Fills a new world's store: a session's copy of a baseline, else the demo seed and the fixtures. */
function fillWorld(parts: ServerParts, options: OzServerOptions, resolved: ResolvedServerOptions, start: BaselineCopy | null, keys: DemoKeys): void {
  const store = parts.store;
  store.data = start?.data ?? emptyData();
  store.catalog = start?.catalog ?? { tools: new Map(), agents: new Map(), steps: new Map() };
  if (start === null && resolved.seed === 'demo') seedDemo(store, keys);
  const fixtureDocuments = start !== null || options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures];
  for (const doc of fixtureDocuments as ReadonlyArray<FixtureDocument | string>) loadFixtures(parts, doc);
}

/** What a world's parts share and change over its life. */
interface WorldCore {
  readonly options: OzServerOptions;
  readonly resolved: ResolvedServerOptions;
  readonly start: BaselineCopy | null;
  readonly parts: ServerParts;
  readonly store: Store;
  readonly clock: ServerClock;
  readonly dashboard: Dashboard;
  /** The handler every mount of the world uses: the server's chain (`serverChain.ts`). */
  handler: RequestHandler;
  closed: boolean;
  /** What reset() returns to; set once the seed function ran. */
  baselineSnapshot: OzSnapshot | null;
  seedCatalog: Catalog;
  readonly listeners: Set<HttpListener>;
  /** Arms the options' stubs (again after a reset). */
  armStubs(): void;
}

/** Schedules whose time passed while the state was elsewhere wait for their next occurrence. */
function skipPastSchedules({ clock, store, parts }: WorldCore): void {
  const now = clock.now();
  for (const s of store.data.schedules.values()) {
    if (s.next_run_at === null || s.next_run_at > now) continue;
    const cron = parseCron(s.cron);
    s.next_run_at = s.enabled && cron ? nextCronRun(cron, s.timezone, now) : null;
    parts.scheduler.arm(s);
  }
}

/** The mounts of a world: in process, msw, and real ports. */
function mountControls(core: WorldCore): Pick<OzServer, 'fetch' | 'handle' | 'handlers' | 'listen'> {
  const { resolved } = core;
  const handle = (request: Request) =>
    core.closed ? Promise.reject(new OzServerClosedError('server.handle')) : serveInProcess(core.handler, resolved, request);
  return {
    // Marked so that a client over it is no browser exposing a key under jsdom or happy-dom (core/shared/runtime.ts).
    fetch: markEmbeddedServerFetch((input: Request | string | URL, init?: RequestInit) => {
      if (core.closed) return Promise.reject(new OzServerClosedError('server.fetch'));
      if (input instanceof Request && init === undefined) return handle(input);
      return serveInProcess(core.handler, resolved, new Request(input, init), 'fetch', input instanceof Request || init?.signal != null);
    }),
    handle,
    handlers: (handlerOptions) => mswHandlers(core.handler, resolved, handlerOptions),
    listen: (listenOptions = {}) => listenWorld(core, listenOptions),
  };
}

/** `server.listen()`: the API and the MCP server on ports of `host`. */
async function listenWorld(core: WorldCore, listenOptions: ListenOptions): Promise<OzListener> {
  const { resolved, listeners } = core;
  if (core.closed) throw new OzServerClosedError('server.listen()');
  const host = listenOptions.host ?? '127.0.0.1';
  const api = await listenHttp(core.handler, 'api', listenOptions.port ?? 0, host, resolved.maxConnectionsPerAddress);
  const mcp = await listenHttp(core.handler, 'mcp', listenOptions.mcpPort ?? 0, host, resolved.maxConnectionsPerAddress).catch(async (err: unknown) => {
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
}

/** What `reset(options)` does with the coverage counts; a bad option is a `TypeError` naming it. */
function checkedResetCoverage(options: OzResetOptions): 'keep' | 'clear' {
  if (typeof options !== 'object' || options === null) throw new TypeError('reset() takes an options object: { coverage?: "keep" | "clear" }');
  const { coverage = 'clear' } = options;
  if (coverage !== 'keep' && coverage !== 'clear') throw new TypeError(`reset(): coverage must be "keep" or "clear", not ${JSON.stringify(coverage)}`);
  return coverage;
}

type StateControlName = 'reset' | 'baseline' | 'loadFixtures' | 'exportState' | 'importState' | 'saveState' | 'snapshot' | 'restore' | 'close';

/** The controls of a world's state: baseline and reset, snapshots, fixtures, export and import, close. */
function stateControls(core: WorldCore): Pick<OzServer, StateControlName> {
  const { parts, store, clock, options } = core;
  const controls: Pick<OzServer, StateControlName> = {
    reset(resetOptions = {}) {
      const coverage = checkedResetCoverage(resetOptions);
      controls.restore(core.baselineSnapshot!);
      skipPastSchedules(core);
      core.dashboard.reset();
      parts.journal.clear();
      parts.faults.clear();
      parts.chaos.clear();
      if (options.chaos !== undefined) parts.chaos.set(options.chaos);
      parts.stubs.clear();
      core.armStubs();
      parts.idempotency.clear();
      parts.walker.clearFailures();
      if (coverage === 'clear') parts.coverage.clear();
    },
    baseline() {
      core.baselineSnapshot = controls.snapshot();
    },
    loadFixtures: (doc) => loadFixtures(parts, doc),
    exportState: () => exportState(store.data, store.catalog, clock.now()),
    importState(doc) {
      // Code tools and agents come from this server: the seed's, and whatever was added since.
      const natives = {
        tools: new Map([...core.seedCatalog.tools, ...store.catalog.tools]),
        agents: new Map([...core.seedCatalog.agents, ...store.catalog.agents]),
        steps: store.catalog.steps,
      };
      const { data, catalog } = importState(doc, natives);
      fitImportedKeys(data, store.data, core.start !== null, store.keyHeldElsewhere);
      const snap: SnapshotData = { __ozSnapshot: true, data, catalog };
      controls.restore(snap);
      skipPastSchedules(core);
    },
    async saveState(path = options.stateFile) {
      if (path === undefined)
        throw new OzMockError(409, 'no_state_file', 'No state file: start oz-mock with --state FILE (or give createOzServer a stateFile).');
      await writeFileAtomic(path, `${JSON.stringify(controls.exportState(), null, 2)}\n`);
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
      resumeRuns(parts);
    },
    async close() {
      core.closed = true;
      await Promise.all([...core.listeners].map((l) => l.close()));
      core.listeners.clear();
      parts.lifetime.renew();
      clock.cancelAll();
    },
  };
  return controls;
}

type CatalogControlName =
  'addAccount' | 'addKey' | 'revokeKey' | 'addCompany' | 'addBuilding' | 'addTool' | 'addAgent' | 'addWorkflow' | 'linkConnection' | 'getExecution' | 'wallet';

/** The controls that add to and read the world's accounts, catalog and executions. */
function catalogControls(store: Store): Pick<OzServer, CatalogControlName> {
  return {
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
  };
}

/** `server.items`: read an item, and move it by hand. */
function itemControls({ store, parts, clock }: WorldCore): OzItemControls {
  const touchItem = (item: ItemRecord): Item => {
    item.updated_at = clock.now();
    const view = itemView(item);
    store.itemChanged(item);
    return view;
  };
  return {
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
  };
}

/** A world's own scope: no control plane, no sessions (the default world's is set by `createOzServer`). */
const NO_SCOPE: ServerScope = { control: null, sessions: null };

/** A world's new parts, filled, its stubs armed, its handler made (its baseline not yet taken). */
function worldCore(options: OzServerOptions, resolved: ResolvedServerOptions, start: BaselineCopy | null, keys: DemoKeys): WorldCore {
  const clock = new ServerClock(options.clock);
  const store = new Store(emptyData(), { tools: new Map(), agents: new Map(), steps: new Map() }, clock, resolved.rateLimit, resolved.retention);
  // The server's parts, wired once into one plain object: each consumer takes them as the needs it declares.
  const parts = createServerParts(resolved, clock, store);
  fillWorld(parts, options, resolved, start, keys);
  const armStubs = () => {
    for (const stub of options.stubs ?? []) parts.stubs.addSpec(stub as unknown as StubData);
  };
  armStubs();
  if (options.chaos !== undefined) parts.chaos.set(options.chaos);
  const dashboard = new Dashboard(
    `${resolved.url}${DASHBOARD_PATH}`,
    () => store,
    clock,
    resolved.maxBodyBytes,
    () => parts.options.keyCacheMs,
  );
  return {
    options,
    resolved,
    start,
    parts,
    store,
    clock,
    dashboard,
    armStubs,
    handler: serverHandler(NO_SCOPE, { parts, dashboard }),
    closed: false,
    baselineSnapshot: null,
    seedCatalog: copyCatalog(store.catalog),
    listeners: new Set<HttpListener>(),
  };
}

/** A world from `options`; `start` (a session's copy of a baseline) replaces the seed and the fixtures. */
function buildWorld(options: OzServerOptions, resolved: ResolvedServerOptions, start: BaselineCopy | null): World {
  const keys = worldKeys(options);
  const adminToken = worldAdminToken(options);
  const core = worldCore(options, resolved, start, keys);
  const { parts, store, clock, dashboard } = core;
  const server: OzServer = {
    adminToken,
    url: resolved.url,
    mcpUrl: resolved.mcpUrl,
    apiKey: keys.apiKey,
    keys: { ...keys, ...keyControls(() => store) },
    connections: connectionControls(() => store),
    clock,
    dashboardUrl: dashboard.url,
    dashboard,
    journal: parts.journal,
    faults: parts.faults,
    chaos: parts.chaos,
    stubs: parts.stubs,
    unused: () => unusedOf(parts),
    coverage: () => parts.coverage.report(),
    session: () => {
      throw new Error('A session has no sessions of its own: call server.session() on the server.');
    },
    ...mountControls(core),
    onResponse: (listener) => parts.events.on('response', listener),
    idle: () => parts.work.idle(clock),
    ...stateControls(core),
    ...catalogControls(store),
    items: itemControls(core),
  };
  const target: ControlTarget = {
    parts,
    items: server.items,
    dashboard,
    reset: (o) => server.reset(o),
    baseline: () => server.baseline(),
    idle: () => server.idle(),
    loadFixtures: (d) => server.loadFixtures(d),
    exportState: () => server.exportState(),
    importState: (d) => server.importState(d),
    saveState: () => server.saveState(),
    keys: server.keys,
    connections: server.connections,
  };
  const world: World = {
    server,
    parts,
    dashboard,
    target,
    adminToken,
    serve: (scope) => void (core.handler = serverHandler(scope, { parts, dashboard })),
    baselineCopy: () => {
      const snap = core.baselineSnapshot as SnapshotData;
      return { data: copyData(snap.data), catalog: copyCatalog(snap.catalog) };
    },
    captureSeed: () => {
      core.seedCatalog = copyCatalog(store.catalog);
      core.baselineSnapshot = server.snapshot();
    },
  };
  if (start !== null) world.captureSeed();
  return world;
}
