import type { HttpHandler } from 'msw';
import type { Execution, Item } from '../../generated/types.js';
import type { AgentDefinition, ToolDefinition } from '../state/catalog.js';
import type { DemoKeys } from '../state/demoSeed.js';
import type { AccountOptions, BuildingOptions, CompanyOptions, CreatedKey, KeyOptions, WorkflowOptions } from '../state/store.js';
import type { OzClock, OzClockOptions } from '../time/clock.js';
import type { StepFailure } from '../runs/itemWalker.js';
import type { OzFaults } from '../harness/faults.js';
import type { OzChaos } from '../harness/chaos.js';
import type { OzJournal } from '../harness/journal.js';
import type { OzCoverageReport } from '../harness/coverage.js';
import type { ResponseListener } from '../harness/serverEvents.js';
import type { OzDashboard } from '../mounts/dashboard.js';
import type { MswHandlerOptions } from '../mounts/mswMount.js';
import type { FixtureDocument } from '../fixtures/fixtureFormat.js';
import type { FixtureSummary } from '../fixtures/fixtures.js';
import type { OzStateDocument } from '../fixtures/stateDocument.js';
import type { KeyKind } from '../state/state.js';
import type { OzStubs } from '../pipeline/stubs/stubs.js';
import type { OzUnused } from '../pipeline/stubs/unused.js';
import type { OzKeyControls } from '../state/keyControls.js';
import type { OzConnectionControls } from '../state/connectionControls.js';

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
  /**
   * The keys: the demo seed's values (created on `seed: 'demo'` only), and `add`, `list`, `revoke` (the same
   * shapes as `connectOzMock()`'s `keys` and `/_oz/keys`).
   */
  readonly keys: DemoKeys & OzKeyControls;
  /** The accounts' connections: `link`, `list`, `unlink` (the same shapes as over HTTP, `/_oz/connections`). */
  readonly connections: OzConnectionControls;
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
  /**
   * Chaos: rules that put a fault on matching requests at a rate, drawn from a seeded generator (the same seed
   * and requests give the same faults); a journal entry's `chaos` names the rule that fired and its draw.
   */
  readonly chaos: OzChaos;
  /** Per-test answers for any operation (checked against openapi.json, rendered on the negotiated wire). */
  readonly stubs: OzStubs;
  /**
   * The faults and stubs armed and never used: call it in an `afterEach` to catch a test whose fault or stub
   * never fired (`expect(server.unused()).toEqual({ faults: [], stubs: [] })`).
   */
  unused(): OzUnused;
  /**
   * What the run exercised of openapi.json: every operation, every response it declares (status, error code,
   * streamed or not) with how many requests got it and what gave it (handler, stub, fault, chaos), and the share
   * covered of the operations called. The server's counts hold its sessions' requests too; a session's, its own.
   * `reset()` clears them unless `{ coverage: 'keep' }`. Hold a suite to it with `expectCoverage()`.
   */
  coverage(): OzCoverageReport;
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
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
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
   * {@link OzServer.baseline} captured. Clears the journal, faults, chaos rules (the `chaos` option's are set
   * again, their generator back at its seed), step failures and the dashboard's choices;
   * the clock keeps its time (schedules due in the past wait for their next time). Work in flight stops: open
   * streams end at once with an `error` event of code `reset`, and no run of the old state writes into the new one.
   * The coverage counts are cleared too, unless `{ coverage: 'keep' }`.
   */
  reset(options?: OzResetOptions): void;
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
  /**
   * Replaces the state with a document from {@link OzServer.exportState}; a foreign or truncated one throws 422.
   * Work in flight stops as in {@link OzServer.reset}; runs the document holds as queued or running start again.
   */
  importState(document: OzStateDocument): void;
  /** Writes the state document to `path` (default: the `stateFile` option) atomically; answers the path. */
  saveState(path?: string): Promise<string>;
  /** The control plane's admin token (`/_oz/` on every mount), or `null` when it is off. */
  readonly adminToken: string | null;
  /** A copy of the whole state (data and catalog). Throws while work is in flight: await {@link OzServer.idle}. */
  snapshot(): OzSnapshot;
  /**
   * Puts a snapshot back (it can be restored again later). Work in flight stops: open streams end at once with an
   * `error` event of code `reset`, and no run of the old state writes into the new one.
   */
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

/** Options of {@link OzServer.reset} (and the body of `POST /_oz/reset`). */
export interface OzResetOptions {
  /** `keep`: the coverage counts live on across the reset (a whole suite's coverage); default `clear`. */
  readonly coverage?: 'keep' | 'clear';
}

/** A key of a session: its new value, with what it belongs to. */
export interface SessionKey {
  /** The key's id (the same as the baseline's key it copies). */
  readonly id: string;
  readonly account: string;
  readonly name: string;
  readonly kind: KeyKind;
  /** The value to send (`ozk_...`, `sk-mdl-...`, `sk-prx-...`): only this session knows it. */
  readonly apiKey: string;
  /** @deprecated the old name of `apiKey`. */
  readonly value: string;
}

/** Options of {@link OzServer.session} (and of `POST /_oz/sessions`). */
export interface OzSessionOptions {
  /** Fixture documents added to the session's copy of the baseline; part of the session's own baseline. */
  readonly fixtures?: FixtureDocument | string | ReadonlyArray<FixtureDocument | string>;
  /** The session's clock. Default: the server clock's time, frozen when the server's is. */
  readonly clock?: OzClockOptions;
}

/** The controls of the server a session has too, acting on the session alone. */
export const SESSION_CONTROLS = [
  'url',
  'mcpUrl',
  'clock',
  'journal',
  'faults',
  'chaos',
  'stubs',
  'items',
  'fetch',
  'handle',
  'onResponse',
  'idle',
  'reset',
  'baseline',
  'loadFixtures',
  'exportState',
  'importState',
  'snapshot',
  'restore',
  'unused',
  'coverage',
  'addAccount',
  'addKey',
  'revokeKey',
  'addCompany',
  'addBuilding',
  'addTool',
  'addAgent',
  'addWorkflow',
  'linkConnection',
  'connections',
  'getExecution',
  'wallet',
] as const satisfies ReadonlyArray<keyof OzServer>;

/** What a session offers: the server's controls, acting on the session alone, and its key listing. */
export type OzSessionControls = Pick<OzServer, (typeof SESSION_CONTROLS)[number]> & {
  /** The session's keys as `server.keys.list()` lists them (`GET /_oz/sessions/{id}/keys`). */
  listKeys: OzKeyControls['list'];
};

/**
 * An isolated world inside one server (see {@link OzServer.session}): a copy of the baseline with new values for
 * every key, and its own state, clock, journal, faults, stubs, idempotency store and rate limits. A request's key
 * selects its session on every mount of the server; the session's `fetch` and `handle` serve it in process.
 */
export interface OzSession extends OzSessionControls {
  /** The session's id (`ses_...`): its control routes are under `/_oz/sessions/{id}/`. */
  readonly id: string;
  /**
   * The session's copy of the demo account's platform key. Reading it throws `OzNoDemoKeyError` when the
   * baseline has none (a server made with `seed: 'empty'`): use {@link OzSession.keys} then.
   */
  readonly apiKey: string;
  /** The session's keys (copies of the baseline's, with new values). */
  readonly keys: readonly SessionKey[];
  /** Ends the session: its timers stop, its keys answer 401 from then on. */
  close(): Promise<void>;
}
