import type { OzClockOptions } from '../time/clock.js';
import type { Timing } from '../time/timing.js';
import { IN_PROCESS_API_URL, IN_PROCESS_MCP_URL } from '../../core/shared/inProcessAddress.js';
import { maxBodyBytes } from '../wire/bodyLimit.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../wire/connectionBound.js';
import { DEFAULT_IDEMPOTENCY_MAX_ENTRIES } from '../state/idempotencyStore.js';
import { DEFAULT_MAX_SESSIONS } from './maxSessions.js';
import type { FixtureDocument } from '../fixtures/fixtureFormat.js';
import type { OzServer } from './ozServer.js';
import type { AnyOperationStub } from '../pipeline/stubs/operationStub.js';
import type { ChaosDocument } from '../harness/chaos.js';

/**
 * A function seed: runs once at creation on the demo seed (after `fixtures`), through the server's own
 * methods; what it adds is part of the baseline `reset()` returns to.
 */
export type OzSeedFunction = (server: OzServer) => void;
import { retentionLimits, type RetentionLimits, type RetentionOptions } from '../state/retention.js';

/** Options of {@link createOzServer}. */
export interface OzServerOptions {
  /**
   * `demo` (default): the contract's demo account and catalog. `empty`: no accounts, tools or agents. A
   * function: the demo seed, then the function (for example `(s) => s.addAccount({ name: 'acme' })`).
   */
  readonly seed?: 'demo' | 'empty' | OzSeedFunction;
  /**
   * Fixture documents (objects, or their JSON or YAML text) added after the seed, in order: part of the
   * baseline `reset()` returns to. A bad document throws 422 `invalid_params` naming the field.
   */
  readonly fixtures?: FixtureDocument | string | ReadonlyArray<FixtureDocument | string>;
  /**
   * Stubs armed at start and again after every `reset()` (`oz-mock --stubs FILE`): each is checked as
   * `server.stubs.add` checks it, so a bad one throws when the server is made.
   */
  readonly stubs?: readonly AnyOperationStub[];
  /**
   * Chaos rules set at start and again after every `reset()`, their generator back at the seed
   * (`oz-mock --chaos FILE`): checked as `server.chaos.set` checks them, so a bad document throws a `TypeError`.
   */
  readonly chaos?: ChaosDocument;
  /**
   * The control plane's admin token (`ozadm_` + 32 letters or digits) for `/_oz/` on every mount. Default: a
   * random one (`server.adminToken`). `false` turns the control plane off (`/_oz/` answers 404).
   */
  readonly adminToken?: string | false;
  /** Where `saveState()` and `POST /_oz/state/save` write the state (atomically). Default: none. */
  readonly stateFile?: string;
  /** The demo account's platform key (`ozk_` + 32 characters of [A-Za-z0-9]). Default: random. */
  readonly apiKey?: string;
  /** The demo account's legacy models-plane key (`sk-mdl-...`). Default: random. */
  readonly modelsKey?: string;
  /** The demo account's legacy connector-proxy key (`sk-prx-...`). Default: random. */
  readonly proxyKey?: string;
  /** The `other` account's platform key (tier `free`). Default: random. */
  readonly otherApiKey?: string;
  /** The clock: a start time, and whether it stands still between `advance` calls. */
  readonly clock?: OzClockOptions;
  /** Pacing of the work the server does on its own (ms of the server clock). */
  readonly timing?: {
    /** One step of an item walk, of an async run's start, of an async workflow's task. Default 10. */
    readonly stepMs?: number;
    /** Between two token events of a stream. Default 2. */
    readonly tokenMs?: number;
    /** A `: ping` comment after this much quiet in a stream; 0 turns them off. Default 15000. */
    readonly pingMs?: number;
    /**
     * The poll interval an unfinished execution suggests (`retry-after-ms`, and `Retry-After` in whole seconds).
     * Default 0: the interval the run's own timing gives (when its next step is due).
     */
    readonly pollMs?: number;
  };
  /** How long a revoked key keeps working (the key cache's time). Default 120000 (about two minutes). */
  readonly keyCacheMs?: number;
  /** The default per-key rate limit of new accounts. Default 100000 requests per 60000 ms. */
  readonly rateLimit?: { readonly limit?: number; readonly windowMs?: number };
  /** How many sessions (`server.session()`, `POST /_oz/sessions`) may live at once; past it, 429. Default 64. */
  readonly maxSessions?: number;
  /** A sync run still going after this long answers 504 `timeout` (the run goes on). Default 30000. */
  readonly syncTimeoutMs?: number;
  /**
   * The client address of requests on the in-process and msw mounts (over HTTP the socket's address counts).
   * A request header `x-oz-mock-client-address` overrides it per request there. Default `127.0.0.1`.
   */
  readonly clientAddress?: string;
  /** How many requests the journal keeps (the newest). Default 10000; 0 keeps none. */
  readonly journalLimit?: number;
  /**
   * How many answers of non-run writes are kept for replay under their `x-trace-id` (24 hours of the server
   * clock each); past it the oldest are dropped first. Default 10000.
   */
  readonly idempotencyMaxEntries?: number;
  /**
   * How many finished executions (with their traces) and finished items the server keeps; beyond that the
   * earliest finished are dropped (they answer 404 like records that never existed). Unfinished work is never
   * dropped. Default 50000 of each; `Infinity` keeps everything.
   */
  readonly retention?: RetentionOptions;
  /** The base URL of the in-process and msw mounts. Default `http://api.oz.test`. */
  readonly url?: string;
  /** The MCP server's own URL (`{mcp_url}`, ending in `/v1`) on the in-process and msw mounts. Default `http://mcp.oz.test/v1`. */
  readonly mcpUrl?: string;
  /**
   * The largest request body accepted, in bytes, on every mount (the API, MCP, the control plane, the
   * dashboard). A larger one answers 413 `payload_too_large` (by its `Content-Length` before anything is read,
   * else as soon as the streamed bytes pass it); over HTTP the connection is then closed. Default 10485760
   * (10 MiB); at most 268435456 (256 MiB).
   */
  readonly maxBodyBytes?: number;
  /**
   * How many connections one client address may hold open on a listener of `listen()`; past it a new
   * connection from that address is closed at once, so one client cannot fill the listener's 16384 and lock
   * others out. Default 4096.
   */
  readonly maxConnectionsPerAddress?: number;
}

/** The options with every default filled in. */
export interface ResolvedServerOptions {
  readonly seed: 'demo' | 'empty';
  readonly timing: Timing;
  readonly keyCacheMs: number;
  readonly rateLimit: { readonly limit: number; readonly window_ms: number };
  readonly syncTimeoutMs: number;
  readonly clientAddress: string;
  readonly journalLimit: number;
  readonly idempotencyMaxEntries: number;
  readonly maxSessions: number;
  readonly retention: RetentionLimits;
  readonly url: string;
  readonly mcpUrl: string;
  /** `mcpUrl`'s origin and a slash: requests starting with it reach the MCP server in process. */
  readonly mcpOrigin: string;
  readonly maxBodyBytes: number;
  readonly maxConnectionsPerAddress: number;
}

function journalLimit(value: number | undefined): number {
  if (value === undefined) return 10_000;
  if (value !== Infinity && !(Number.isInteger(value) && value >= 0))
    throw new RangeError(`journalLimit must be a whole number >= 0 or Infinity, got ${String(value)}`);
  return value;
}

function maxConnectionsPerAddress(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`maxConnectionsPerAddress must be a whole number >= 1, got ${String(value)}`);
  return value;
}

function maxSessions(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_SESSIONS;
  if (!(Number.isInteger(value) && value >= 0)) throw new RangeError(`maxSessions must be a whole number >= 0, got ${String(value)}`);
  return value;
}

/** Fills in the defaults. */
export function resolveServerOptions(options: OzServerOptions): ResolvedServerOptions {
  const mcpUrl = (options.mcpUrl ?? IN_PROCESS_MCP_URL).replace(/\/+$/, '');
  const url = (options.url ?? IN_PROCESS_API_URL).replace(/\/+$/, '');
  if (new URL(mcpUrl).origin === new URL(url).origin) throw new Error('url and mcpUrl need different origins (host or port)');
  if (new URL(url).pathname !== '/') throw new Error('url must be an origin (no path): the routes of the API start at /v1');
  return {
    seed: options.seed === 'empty' ? 'empty' : 'demo',
    timing: {
      stepMs: options.timing?.stepMs ?? 10,
      tokenMs: options.timing?.tokenMs ?? 2,
      pingMs: options.timing?.pingMs ?? 15_000,
      pollMs: options.timing?.pollMs ?? 0,
    },
    keyCacheMs: options.keyCacheMs ?? 120_000,
    rateLimit: { limit: options.rateLimit?.limit ?? 100_000, window_ms: options.rateLimit?.windowMs ?? 60_000 },
    syncTimeoutMs: options.syncTimeoutMs ?? 30_000,
    clientAddress: options.clientAddress ?? '127.0.0.1',
    journalLimit: journalLimit(options.journalLimit),
    idempotencyMaxEntries: options.idempotencyMaxEntries ?? DEFAULT_IDEMPOTENCY_MAX_ENTRIES,
    maxSessions: maxSessions(options.maxSessions),
    retention: retentionLimits(options.retention),
    url,
    mcpUrl,
    mcpOrigin: `${new URL(mcpUrl).origin}/`,
    maxBodyBytes: maxBodyBytes(options.maxBodyBytes),
    maxConnectionsPerAddress: maxConnectionsPerAddress(options.maxConnectionsPerAddress),
  };
}
