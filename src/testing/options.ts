import type { OzClockOptions } from './clock.js';
import { retentionLimits, type RetentionLimits, type RetentionOptions } from './retention.js';

/** Options of {@link createOzServer}. */
export interface OzServerOptions {
  /** `demo` (default): the contract's demo account and catalog. `empty`: no accounts, tools or agents. */
  readonly seed?: 'demo' | 'empty';
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
  };
  /** How long a revoked key keeps working (the key cache's time). Default 120000 (about two minutes). */
  readonly keyCacheMs?: number;
  /** The default per-key rate limit of new accounts. Default 100000 requests per 60000 ms. */
  readonly rateLimit?: { readonly limit?: number; readonly windowMs?: number };
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
   * How many finished executions (with their traces) and finished items the server keeps; beyond that the
   * earliest finished are dropped (they answer 404 like records that never existed). Unfinished work is never
   * dropped. Default 50000 of each; `Infinity` keeps everything.
   */
  readonly retention?: RetentionOptions;
  /** The base URL of the in-process and msw mounts. Default `http://api.oz.test`. */
  readonly url?: string;
  /** The MCP server's own URL (`{mcp_url}`, ending in `/v1`) on the in-process and msw mounts. Default `http://mcp.oz.test/v1`. */
  readonly mcpUrl?: string;
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  readonly seed: 'demo' | 'empty';
  readonly timing: { readonly stepMs: number; readonly tokenMs: number; readonly pingMs: number };
  readonly keyCacheMs: number;
  readonly rateLimit: { readonly limit: number; readonly window_ms: number };
  readonly syncTimeoutMs: number;
  readonly clientAddress: string;
  readonly journalLimit: number;
  readonly retention: RetentionLimits;
  readonly url: string;
  readonly mcpUrl: string;
  /** `mcpUrl`'s origin and a slash: requests starting with it reach the MCP server in process. */
  readonly mcpOrigin: string;
}

function journalLimit(value: number | undefined): number {
  if (value === undefined) return 10_000;
  if (value !== Infinity && !(Number.isInteger(value) && value >= 0)) throw new RangeError(`journalLimit must be a whole number >= 0 or Infinity, got ${String(value)}`);
  return value;
}

/** Fills in the defaults. */
export function resolveOptions(options: OzServerOptions): ResolvedOptions {
  const mcpUrl = (options.mcpUrl ?? 'http://mcp.oz.test/v1').replace(/\/+$/, '');
  const url = (options.url ?? 'http://api.oz.test').replace(/\/+$/, '');
  if (new URL(mcpUrl).origin === new URL(url).origin) throw new Error('url and mcpUrl need different origins (host or port)');
  if (new URL(url).pathname !== '/') throw new Error('url must be an origin (no path): the routes of the API start at /v1');
  return {
    seed: options.seed ?? 'demo',
    timing: {
      stepMs: options.timing?.stepMs ?? 10,
      tokenMs: options.timing?.tokenMs ?? 2,
      pingMs: options.timing?.pingMs ?? 15_000,
    },
    keyCacheMs: options.keyCacheMs ?? 120_000,
    rateLimit: { limit: options.rateLimit?.limit ?? 100_000, window_ms: options.rateLimit?.windowMs ?? 60_000 },
    syncTimeoutMs: options.syncTimeoutMs ?? 30_000,
    clientAddress: options.clientAddress ?? '127.0.0.1',
    journalLimit: journalLimit(options.journalLimit),
    retention: retentionLimits(options.retention),
    url,
    mcpUrl,
    mcpOrigin: `${new URL(mcpUrl).origin}/`,
  };
}
