import type { Execution, Item } from '../generated/types.js';
import { newKeyValue } from './apiKeys.js';
import { createRequestHandler, type RequestHandler } from './app.js';
import { copyCatalog, type AgentDefinition, type Catalog, type ToolDefinition } from './catalog.js';
import { newAdminToken, isAdminTokenShape } from './control/adminToken.js';
import { writeFileAtomic } from './control/atomicFile.js';
import { withControlPlane, type ControlTarget } from './control/controlPlane.js';
import type { FixtureDocument } from './control/fixtureFormat.js';
import { loadFixtures, type FixtureSummary } from './control/fixtures.js';
import { exportState, importState, type OzStateDocument } from './control/stateDocument.js';
import { nextCronRun, parseCron } from './cron.js';
import { OzMockError } from './errors.js';
import { ServerClock, type OzClock } from './clock.js';
import { Dashboard, DASHBOARD_PATH, withDashboard, type OzDashboard } from './dashboard.js';
import { withRequestIds } from './requestIdHeader.js';
import { OzServerClosedError } from './serverClosedError.js';
import { seedDemo, type DemoKeys } from './demoSeed.js';
import { executionView, usd } from './executionViews.js';
import { Faults, type OzFaults } from './faults.js';
import { serveInProcess } from './fetchMount.js';
import { IdempotencyStore } from './idempotency.js';
import { itemView } from './itemViews.js';
import { HANDLERS } from './handlers/index.js';
import { listenHttp, type HttpListener } from './httpMount.js';
import { mswHandlers, type MswHandlerOptions } from './mswMount.js';
import type { HttpHandler } from 'msw';
import type { StepFailure } from './itemWalker.js';
import { Journal, type OzJournal } from './journal.js';
import { withLoopbackHost } from './loopbackHost.js';
import { resolveOptions, type OzServerOptions } from './options.js';
import { createServerCore, type ResponseListener, type ServerCore } from './serverCore.js';
import { copyData, emptyData, isItemFinished, type BuildingRecord, type ItemRecord, type ServerData } from './state.js';
import {
  Store,
  type AccountOptions,
  type BuildingOptions,
  type CompanyOptions,
  type CreatedKey,
  type KeyOptions,
  type WorkflowOptions,
} from './store.js';
import { WorkTracker } from './workTracker.js';
import type { OzSession, OzSessionOptions } from './sessions/session.js';
import { sessionControls } from './sessions/session.js';
import { SessionRegistry, type BaselineCopy } from './sessions/sessionRegistry.js';
import { Stubs, type OzStubs } from './stubs/stubs.js';
import { unusedOf, type OzUnused } from './unused.js';
import type { ResolvedOptions } from './options.js';

/** Options of {@link OzServer.listen}. */
export interface ListenOptions {
  /** The API's port; 0 (default) picks a free one. */
  readonly port?: number;
  /** The separate MCP server's port; 0 (default) picks a free one. */
  readonly mcpPort?: number;
  /** The address to listen on. Default `127.0.0.1`. */
  readonly host?: string;
}

/** A server listening on real sockets. */
export interface OzListener {
  /** The API's base URL, for example `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The MCP server's own URL (`{mcp_url}`), for example `http://127.0.0.1:4011/v1`. */
  readonly mcpUrl: string;
  readonly port: number;
  readonly mcpPort: number;
  /** The dashboard's URL on this listener (`{url}/dashboard`): see {@link OzDashboard}. */
  readonly dashboardUrl: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** A copy of the whole state, for {@link OzServer.restore}. */
export interface OzSnapshot {
  /** Brands the opaque snapshot (its content is the server's business). */
  readonly __ozSnapshot: true;
}

interface SnapshotData extends OzSnapshot {
  readonly data: ServerData;
  readonly catalog: Catalog;
}

/** Changes a test may make to an item (a local building's node finishing it, a steer...). */
export type ItemPatch = Partial<Pick<Item, 'step' | 'status' | 'attempt' | 'priority' | 'parked_reason' | 'paused' | 'steer' | 'last_output'>>;

/** Drives items where the API has no route: parking, pausing, a local node's work, failing steps. */
export interface OzItemControls {
  /** An item as the API shows it. */
  get(id: string): Item | undefined;
  /** Parks an item: `step: parked`, `status: parked`, `parked_reason`. Its walk stops. */
  park(id: string, reason: string): Item;
  /** Pauses an item (`paused: 1`): it holds where it is. */
  pause(id: string): Item;
  /** Resumes a paused item: a cloud building's walk goes on. */
  resume(id: string): Item;
  /** Changes fields of an item (for example what a local building's node did). */
  update(id: string, patch: ItemPatch): Item;
  /** Makes the next attempts at a pipeline step fail (3 failures make the item `failed`). */
  failStep(failure: StepFailure): void;
}

/** An in-memory Oz server: see {@link createOzServer}. */
export interface OzServer {
  /** The base URL of the in-process and msw mounts (`http://api.oz.test` unless set). */
  readonly url: string;
  /** The MCP server's own URL on the in-process and msw mounts (`http://mcp.oz.test/v1` unless set). */
  readonly mcpUrl: string;
  /** The demo account's platform key (same as `keys.apiKey`). */
  readonly apiKey: string;
  /** The demo seed's keys (created on `seed: 'demo'` only). */
  readonly keys: DemoKeys;
  /** The controllable clock. */
  readonly clock: OzClock;
  /** The dashboard's URL on the in-process and msw mounts (`{url}/dashboard`), for the command-line sign-in. */
  readonly dashboardUrl: string;
  /** The dashboard the server plays for the command-line sign-in: who signs in, the keys it makes. */
  readonly dashboard: OzDashboard;
  /** Every request received, for assertions. */
  readonly journal: OzJournal;
  /** Fault injection for the next N matching requests. */
  readonly faults: OzFaults;
  /** Per-test answers for any operation (checked against openapi.json, rendered on the negotiated wire). */
  readonly stubs: OzStubs;
  /**
   * The faults and stubs armed and never used: call it in an `afterEach` to catch a test whose fault or stub
   * never fired (`expect(server.unused()).toEqual({ faults: [], stubs: [] })`).
   */
  unused(): OzUnused;
  /**
   * A new session: an isolated world inside this server, made from the baseline with new values for every key,
   * with its own state, clock, journal, faults, stubs, idempotency store and rate limits. A request's key selects
   * its session; `reset`, `journal`, `faults`, `clock` of the session act on it alone. At most `maxSessions`
   * (default 64) live at once: past it, 429 `rate_limited`. End it with `session.close()`.
   */
  session(options?: OzSessionOptions): OzSession;
  /** Item controls where the API has no route. */
  readonly items: OzItemControls;
  /**
   * The in-process mount: a Fetch-API function to give a client as its `fetch`. No socket; nothing global is
   * patched. Requests to {@link OzServer.mcpUrl}'s origin reach the MCP server.
   */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The one request handler behind every mount, as a `(Request) => Promise<Response>`. */
  handle(request: Request): Promise<Response>;
  /**
   * The msw mount: handlers for msw 2's `setupServer(...server.handlers())` (msw is an optional peer,
   * loaded only here). They intercept {@link OzServer.url} and {@link OzServer.mcpUrl}, or the URLs given.
   */
  handlers(options?: MswHandlerOptions): HttpHandler[];
  /** Listens on real sockets (the API and the MCP server's own URL). */
  listen(options?: ListenOptions): Promise<OzListener>;
  /** Calls `listener` with every answer the server gives (a clone of it); answers an unsubscribe function. */
  onResponse(listener: ResponseListener): () => void;
  /** Resolves once no run, walk or scheduled work step is in flight. */
  idle(): Promise<void>;
  /**
   * Back to the baseline: the seed, then `fixtures`, then a function seed, then what the last
   * {@link OzServer.baseline} captured. Clears the journal, faults, stubs, step failures and the dashboard's choices;
   * the clock keeps its time (schedules due in the past wait for their next time).
   */
  reset(): void;
  /**
   * The current state becomes what {@link OzServer.reset} returns to: call it at the end of `beforeAll`
   * seeding. Throws while work is in flight: await {@link OzServer.idle} first.
   */
  baseline(): void;
  /**
   * Adds a fixture document (an object, or its JSON or YAML text): accounts, keys, companies, declared tools
   * and agents, workflows, schedules, connections. Checked whole first: a bad field throws 422
   * `invalid_params` naming its path (`tools[2].answer`), and nothing is added.
   */
  loadFixtures(document: FixtureDocument | string): FixtureSummary;
  /** The whole state as one JSON document (`GET /_oz/state`), with its format version. */
  exportState(): OzStateDocument;
  /** Replaces the state with a document from {@link OzServer.exportState}; a foreign or truncated one throws 422. */
  importState(document: OzStateDocument): void;
  /** Writes the state document to `path` (default: the `stateFile` option) atomically; answers the path. */
  saveState(path?: string): Promise<string>;
  /** The control plane's admin token (`/_oz/` on every mount), or `null` when it is off. */
  readonly adminToken: string | null;
  /** A copy of the whole state (data and catalog). Throws while work is in flight: await {@link OzServer.idle}. */
  snapshot(): OzSnapshot;
  /** Puts a snapshot back (it can be restored again later). Work in flight stops. */
  restore(snapshot: OzSnapshot): void;
  /**
   * Stops every listener and timer. The server is then closed for good: `fetch`, `handle` and `listen()` reject
   * with {@link OzServerClosedError}.
   */
  close(): Promise<void>;

  /** Adds an account. */
  addAccount(options: AccountOptions): void;
  /** Adds a key; its value is answered this once (only its hash is kept). */
  addKey(options: KeyOptions): CreatedKey;
  /** Revokes a key (by id or value): it works for the key cache's time (`keyCacheMs`), then answers 401. */
  revokeKey(idOrValue: string): void;
  /** Adds a company with its buildings. */
  addCompany(options: CompanyOptions): void;
  /** Adds a building to a company. */
  addBuilding(account: string, campus: string, building: BuildingOptions): void;
  /** Adds (or replaces) a tool, with its handler. */
  addTool(tool: ToolDefinition): void;
  /** Adds (or replaces) an agent, with its handler. */
  addAgent(agent: AgentDefinition): void;
  /** Stores a workflow for an account. */
  addWorkflow(workflow: WorkflowOptions): void;
  /** Sets an account connection (default: linked, as if the account holder finished the OAuth consent). */
  linkConnection(account: string, provider: string, options?: { method?: 'oauth' | 'api_key' | 'wallet'; status?: 'pending' | 'linked' }): void;
  /** An execution as the API shows it. */
  getExecution(id: string): Execution | undefined;
  /** An account's wallet, in US dollars. */
  wallet(account: string): { balance_usd: number; spent_usd: number };
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
  const resolved = resolveOptions(options);
  const root = buildWorld(options, resolved, null);
  const { server, core } = root;
  const sessions = new SessionRegistry(
    resolved.maxSessions,
    (start, o) => {
      const clockOptions = { start: o.clock?.start ?? core.clock.now(), frozen: o.clock?.frozen ?? core.clock.frozen };
      const world = buildWorld({ clock: clockOptions, adminToken: false, seed: 'empty' }, resolved, start);
      const fixtures = o.fixtures === undefined ? [] : Array.isArray(o.fixtures) ? o.fixtures : [o.fixtures];
      try {
        for (const doc of fixtures as ReadonlyArray<FixtureDocument | string>) world.server.loadFixtures(doc);
      } catch (err) {
        void world.server.close();
        throw err;
      }
      world.server.baseline();
      return { controls: sessionControls(world.server), core: world.core, handler: world.handler(), target: world.target, close: () => world.server.close() };
    },
    () => root.baselineCopy(),
    resolved.seed === 'demo' ? server.apiKey : null,
  );
  const closeRoot = server.close;
  // The default world is built as any world is; only it makes sessions, and closing it ends them.
  Object.assign(server, {
    session: (o?: OzSessionOptions) => sessions.create(o),
    close: async () => {
      await sessions.closeAll();
      await closeRoot();
    },
  });
  // Outermost: the Host check before anything, and an x-request-id on every answer of the port (the 403 too).
  root.wrap((handler) => withRequestIds(withLoopbackHost(withControlPlane(sessions.route(handler), { ...root.target, sessions }, root.adminToken))));
  if (typeof options.seed === 'function') options.seed(server);
  root.captureSeed();
  return server;
}

/** One world: a server's state, clock, journal, faults, stubs and handler (the default session, or a session). */
interface World {
  readonly server: OzServer;
  readonly core: ServerCore;
  readonly target: ControlTarget;
  readonly adminToken: string | null;
  /** The API's handler now. */
  handler(): RequestHandler;
  /** Puts something in front of the handler every mount uses. */
  wrap(outer: (handler: RequestHandler) => RequestHandler): void;
  /** A copy of the baseline `reset()` returns to. */
  baselineCopy(): BaselineCopy;
  /** The state after seeding is the baseline (and its catalog holds the natives `importState` keeps). */
  captureSeed(): void;
}

/** A world from `options`; `start` (a session's copy of a baseline) replaces the seed and the fixtures. */
function buildWorld(options: OzServerOptions, resolved: ResolvedOptions, start: BaselineCopy | null): World {
  const clock = new ServerClock(options.clock);
  const keys: DemoKeys = {
    apiKey: options.apiKey ?? newKeyValue('platform'),
    modelsKey: options.modelsKey ?? newKeyValue('models'),
    proxyKey: options.proxyKey ?? newKeyValue('proxy'),
    otherApiKey: options.otherApiKey ?? newKeyValue('platform'),
  };
  const store = new Store(emptyData(), { tools: new Map(), agents: new Map(), steps: new Map() }, clock, resolved.rateLimit, resolved.retention);
  const core = createServerCore({
    options: resolved,
    clock,
    store,
    work: new WorkTracker(),
    journal: new Journal(resolved.journalLimit),
    faults: new Faults(),
    stubs: new Stubs(),
    idempotency: new IdempotencyStore(resolved.idempotencyMaxEntries),
    observers: new Set<ResponseListener>(),
  });

  if (options.adminToken !== undefined && options.adminToken !== false && !isAdminTokenShape(options.adminToken)) {
    throw new TypeError('adminToken must be ozadm_ followed by 32 letters or digits');
  }
  const adminToken = options.adminToken === false ? null : (options.adminToken ?? newAdminToken());
  store.data = start?.data ?? emptyData();
  store.catalog = start?.catalog ?? { tools: new Map(), agents: new Map(), steps: new Map() };
  if (start === null && resolved.seed === 'demo') seedDemo(store, keys);
  const fixtureDocuments = start !== null || options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures];
  for (const doc of fixtureDocuments as ReadonlyArray<FixtureDocument | string>) loadFixtures(core, doc);

  const dashboard = new Dashboard(`${resolved.url}${DASHBOARD_PATH}`, () => store, clock, resolved.maxBodyBytes);
  let handler: RequestHandler = withDashboard(createRequestHandler(core, HANDLERS), dashboard);
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
      core.scheduler.arm(s);
    }
  };
  const listeners = new Set<HttpListener>();
  let closed = false;
  const handle = (request: Request) => (closed ? Promise.reject(new OzServerClosedError('server.handle')) : serveInProcess(handler, resolved, request));

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
    journal: core.journal,
    faults: core.faults,
    stubs: core.stubs,
    unused: () => unusedOf(core),
    session: () => {
      throw new Error('A session has no sessions of its own: call server.session() on the server.');
    },
    fetch: (input, init) => {
      if (closed) return Promise.reject(new OzServerClosedError('server.fetch'));
      if (input instanceof Request && init === undefined) return handle(input);
      return serveInProcess(handler, resolved, new Request(input, init), 'fetch', input instanceof Request || init?.signal != null);
    },
    handle,
    handlers: (handlerOptions) => mswHandlers(handler, resolved, handlerOptions),
    async listen(listenOptions = {}) {
      if (closed) throw new OzServerClosedError('server.listen()');
      const host = listenOptions.host ?? '127.0.0.1';
      const api = await listenHttp(handler, 'api', listenOptions.port ?? 0, host, resolved.maxConnectionsPerAddress);
      const mcp = await listenHttp(handler, 'mcp', listenOptions.mcpPort ?? 0, host, resolved.maxConnectionsPerAddress).catch(async (err: unknown) => {
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
    onResponse(listener) {
      core.observers.add(listener);
      return () => core.observers.delete(listener);
    },
    idle: () => core.work.idle(clock),
    reset() {
      server.restore(baselineSnapshot!);
      skipPastSchedules();
      dashboard.reset();
      core.journal.clear();
      core.faults.clear();
      core.stubs.clear();
      core.idempotency.clear();
      core.walker.clearFailures();
    },
    baseline() {
      baselineSnapshot = server.snapshot();
    },
    loadFixtures: (doc) => loadFixtures(core, doc),
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
      if (core.work.busy(clock)) throw new Error('snapshot() while work is in flight: await server.idle() first.');
      const snap: SnapshotData = { __ozSnapshot: true, data: copyData(store.data), catalog: copyCatalog(store.catalog) };
      return snap;
    },
    restore(snapshot) {
      const snap = snapshot as SnapshotData;
      core.lifetime.renew();
      store.data = copyData(snap.data);
      store.catalog = copyCatalog(snap.catalog);
      core.idempotency.clear();
      core.walker.resumeAll();
      core.scheduler.armAll();
    },
    async close() {
      closed = true;
      await Promise.all([...listeners].map((l) => l.close()));
      listeners.clear();
      core.lifetime.renew();
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
        core.walker.schedule(item);
        return view;
      },
      update: (id, patch) => {
        const item = requireItem(store.data, id);
        Object.assign(item, patch);
        const view = touchItem(item);
        core.walker.schedule(item);
        return view;
      },
      failStep: (failure) => core.walker.failStep(failure),
    },
  };
  const target: ControlTarget = { core, items: server.items, dashboard, reset: () => server.reset(), baseline: () => server.baseline(), idle: () => server.idle(), loadFixtures: (d) => server.loadFixtures(d), exportState: () => server.exportState(), importState: (d) => server.importState(d), saveState: () => server.saveState(), addKey: (o) => server.addKey(o), revokeKey: (k) => server.revokeKey(k) };
  const world: World = {
    server,
    core,
    target,
    adminToken,
    handler: () => handler,
    wrap: (outer) => void (handler = outer(handler)),
    baselineCopy: () => {
      const snap = baselineSnapshot as SnapshotData;
      return { data: copyData(snap.data), catalog: copyCatalog(snap.catalog) };
    },
    captureSeed: () => {
      seedCatalog = copyCatalog(store.catalog);
      baselineSnapshot = server.snapshot();
    },
  };
  if (start !== null) world.captureSeed();
  return world;
}
