import type { ApiKeySource } from './core/credentials.js';
import { OzUsageError, registerErrorCodes } from './core/errors.js';
import { filteredLogger, parseLogLevel, type Logger, type LogLevel } from './core/logger.js';
import { checkedBaseURL } from './core/baseURL.js';
import type { Middleware } from './core/middleware.js';
import type { AuthHeader, FetchLike, FetchOptions, QueryParams } from './core/requestOptions.js';
import type { ValidateMode } from './core/responseValidation.js';
import type { RetryOptions } from './core/retryOptions.js';
import { isBrowser } from './core/runtime.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, Transport, type TransportConfig } from './core/transport.js';
import type { JsonRequestOptions } from './core/wire.js';
import type { WhoAmI } from './generated/index.js';
import { OzResources } from './generated/index.js';
import { ERROR_CODES } from './generated/errors.js';
import { OPERATIONS } from './generated/operations.js';
import { Executions } from './resources/executions.js';
import { McpClient } from './mcp/mcpClient.js';
import { createRawClient, type OzRawClient } from './raw/rawClient.js';
import { profileApiKey } from './profiles/profileApiKey.js';

/**
 * Options of an {@link Oz} client. Per call (`RequestOptions`), the same names override them, except
 * `defaultHeaders` (per call: `headers`, which adds to them), `defaultQuery` (per call: `query`), and `mcpURL` and
 * `dangerouslyAllowBrowser`, which only a client has (`client.withOptions({ mcpURL })` makes one).
 */
export interface ClientOptions {
  /**
   * The platform key (`ozk_...`). Defaults to `OZ_API_KEY`. Never logged, inspected or serialized. A legacy key
   * (`sk-mdl-`: models plane only; `sk-prx-`: connector proxy only) is sent as given; where the service answers
   * it 401 on another plane, the call throws `LegacyKeyError`, which says why (decided after the request).
   *
   * Or a function that gives the key (sync or async), asked for every call: after a 401 it is asked once more and
   * the call retried once with the key it then gives, so switching what it answers rotates the key of a running
   * client. It is bounded by the attempt's `timeout` and the signal; one that throws or gives anything but a
   * non-empty string fails the call with `OzUsageError`.
   */
  apiKey?: ApiKeySource | undefined;
  /**
   * The service's root address, for example `https://oz.example.com` (not `.../v1`: the paths start with `/v1/`).
   * Defaults to `OZ_BASE_URL`; there is no public default.
   */
  baseURL?: string | undefined;
  /** Retries after the first attempt, on connection errors, timeouts, 408, 429 and 500+. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Backoff (`initialDelayMs`, `maxDelayMs`, `jitter`), the longest `Retry-After` waited (`maxRetryAfterMs`),
   * `shouldRetry(error, attempt)` and `onRetry(info)`. Each field defaults to the reference client's; a call's
   * `retry` and `withOptions({ retry })` set single fields over these.
   */
  retry?: RetryOptions | undefined;
  /**
   * Functions `(request, next, context) => Promise<Response>` run on every attempt of every request the client
   * makes (resource methods, polls, `oz.raw`, MCP), in order: the first is the outermost. `withOptions()` and a
   * call's `middleware` add theirs inside these.
   */
  middleware?: readonly Middleware[] | undefined;
  /** Milliseconds per attempt. Default 600000 (10 minutes). A stream's attempt ends at its first byte. */
  timeout?: number | undefined;
  /**
   * Milliseconds a stream may wait without an event before it is closed with `OzStreamIdleTimeoutError`. Default
   * 300000 (5 minutes); `Infinity` turns it off. Comments (`: ping`) keep the connection alive, not the stream.
   */
  idleTimeout?: number | undefined;
  /** Bytes one stream event may take before it is complete; past them `OzStreamEventTooLargeError`. Default 16 MiB. */
  maxEventBytes?: number | undefined;
  /** Milliseconds a whole stream may last, however lively; past them `OzStreamTimeoutError`. Default: no limit. */
  streamTimeout?: number | undefined;
  /** Any Fetch-API function, for example the embedded server's `server.fetch`. Defaults to `globalThis.fetch`. */
  fetch?: FetchLike | undefined;
  /**
   * Fields of every `fetch` call's `init`, for example undici's `dispatcher` to go through a proxy or change the
   * connection's timeouts. The SDK's own `method`, `headers`, `body` and `signal` always win.
   */
  fetchOptions?: FetchOptions | undefined;
  /** Headers sent on every call. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Query parameters added to every call's URL (a call's `query` and the operation's own parameters win). */
  defaultQuery?: QueryParams | undefined;
  /** `off`, `error`, `warn` (default), `info` or `debug`. Defaults to `OZ_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go. Defaults to `console`. */
  logger?: Logger | undefined;
  /** `bearer` (default) or `x-api-key`; `x-api-key` is used only where the service accepts it. */
  authHeader?: AuthHeader | undefined;
  /**
   * The MCP server's own address (`{mcp_url}`, ending in `/v1`). Defaults to `OZ_MCP_URL`, else `/v1/mcp` under
   * `baseURL`.
   */
  mcpURL?: string | undefined;
  /** Lets the client run in a browser, where the key is visible to anyone who opens the page. Default false. */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Check answers against openapi.json: `off` (default), `warn` (log the first mismatch of each operation, and add
   * a span event) or `strict` (throw `OzResponseValidationError` with the JSON path, the value and the request
   * id). JSON and YAML bodies and every stream event are checked; unknown fields and enum values pass. The
   * validators are generated code, loaded only once a call is made with validation on.
   */
  validate?: ValidateMode | undefined;
}

const env = (name: string): string | undefined =>
  typeof process === 'undefined' ? undefined : process.env?.[name]?.trim() || undefined;

/** The options of a client with the environment's values filled in. */
function resolveOptions(options: ClientOptions): ClientOptions & { baseURL: string; apiKey: ApiKeySource } {
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new OzUsageError(
      'The Oz client refuses to run in a browser, where its API key would be exposed to every visitor. ' +
        'Call Oz from a server; if you really mean it, pass `dangerouslyAllowBrowser: true`.',
    );
  }
  const baseURL = options.baseURL ?? env('OZ_BASE_URL');
  if (!baseURL) throw new OzUsageError('No base URL: pass `baseURL` or set OZ_BASE_URL (the service has no public default).');
  checkedBaseURL(baseURL, options.baseURL === undefined ? 'OZ_BASE_URL' : 'baseURL');
  // The key: the option, OZ_API_KEY, then the selected profile (Node only), read on the first call.
  const apiKey = options.apiKey ?? env('OZ_API_KEY') ?? profileApiKey();
  if (!apiKey) throw new OzUsageError('No API key: pass `apiKey` or set OZ_API_KEY (profiles of `oz sign-in` are read on Node only).');
  let logLevel = options.logLevel;
  const fromEnv = env('OZ_LOG');
  if (logLevel === undefined && fromEnv !== undefined) {
    logLevel = parseLogLevel(fromEnv);
    if (logLevel === undefined) {
      filteredLogger(options.logger ?? console, 'warn', typeof apiKey === 'string' ? [apiKey] : []).warn(
        `OZ_LOG is ${JSON.stringify(fromEnv)}; expected one of off, error, warn, info, debug. Using warn.`,
      );
    }
  }
  const mcpURL = options.mcpURL ?? env('OZ_MCP_URL');
  return { ...options, baseURL, apiKey, mcpURL, logLevel: logLevel ?? 'warn' };
}

// withOptions() hands its transport to the new client under this key (never a public option).
const PARENT_TRANSPORT = Symbol('oz parent transport');
type DerivedOptions = ClientOptions & { [PARENT_TRANSPORT]?: Transport };

/**
 * The Oz client: one property per resource of the API (`client.tools.execute(...)`,
 * `client.companies.items.create(...)`), each method generated from openapi.json.
 *
 * The key is held in a private field: it never shows in `util.inspect(client)`, `JSON.stringify(client)`, a
 * log line or an error.
 */
export class Oz extends OzResources {
  readonly #options: ClientOptions & { baseURL: string; apiKey: ApiKeySource };
  readonly #transport: Transport;
  /** The MCP server: raw JSON-RPC `request` plus `initialize`, `listTools`, `callTool`, `whoami`, `getResult`, `followup`. */
  declare readonly mcp: McpClient;
  /** The `executions` resource, with `wait()` to poll an execution (or an async pointer) to its end. */
  declare readonly executions: Executions;
  /**
   * Typed calls to any path of openapi.json (openapi-fetch's `GET`, `POST`, ... typed by the generated `paths`)
   * through this client's transport: its key, headers, retries, trace ids, spans and typed errors.
   */
  readonly raw: OzRawClient;

  constructor(options: ClientOptions = {}) {
    // Installed here by name, not only when src/generated/errors.ts loads: a bundler that trusts
    // `sideEffects: false` drops a module none of whose exports is used, and every code would read as its status.
    registerErrorCodes(ERROR_CODES);
    const resolved = resolveOptions(options);
    const parent = (options as DerivedOptions)[PARENT_TRANSPORT];
    const config: TransportConfig = {
      baseURL: resolved.baseURL,
      apiKey: resolved.apiKey,
      executionRecord: OPERATIONS.getExecution,
      fetch: resolved.fetch,
      fetchOptions: resolved.fetchOptions,
      defaultHeaders: resolved.defaultHeaders,
      defaultQuery: resolved.defaultQuery,
      maxRetries: resolved.maxRetries,
      timeout: resolved.timeout,
      idleTimeout: resolved.idleTimeout,
      maxEventBytes: resolved.maxEventBytes,
      streamTimeout: resolved.streamTimeout,
      authHeader: resolved.authHeader,
      logLevel: resolved.logLevel,
      logger: resolved.logger,
      validate: resolved.validate,
      // A chunk of its own: a program that never turns validation on never loads it.
      loadValidators: () => import('./generated/responseValidators.js'),
      retry: resolved.retry,
      middleware: resolved.middleware,
    };
    const transport = parent === undefined ? new Transport(config) : parent.withOptions(config);
    super(transport);
    this.#transport = transport;
    this.mcp = new McpClient(transport, resolved.mcpURL);
    this.executions = new Executions(transport);
    this.raw = createRawClient(transport, resolved.baseURL);
    const { [PARENT_TRANSPORT]: _, ...own } = resolved as DerivedOptions & typeof resolved;
    this.#options = own;
  }

  /** Who this key is (user, auth type, tier, key label, rate-limit window), through MCP `svc_whoami`. */
  whoami(options?: JsonRequestOptions): Promise<WhoAmI> {
    return this.mcp.whoami(options);
  }

  /**
   * A client with these options over this one's (the key included unless given), over the same transport: the
   * same `fetch` and connections, the same key provider and the keys it gave. `middleware` is added inside this
   * client's; `retry` sets single fields over this client's.
   */
  withOptions(options: ClientOptions): Oz {
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ClientOptions;
    const parent = this.#options;
    const derived: DerivedOptions = { ...parent, ...defined, [PARENT_TRANSPORT]: this.#transport };
    if (defined.middleware !== undefined) derived.middleware = [...(parent.middleware ?? []), ...defined.middleware];
    if (defined.retry !== undefined) derived.retry = { ...parent.retry, ...defined.retry };
    return new Oz(derived);
  }

  /** The base address calls go to. */
  get baseURL(): string {
    return this.#options.baseURL;
  }

  /** Retries after the first attempt. */
  get maxRetries(): number {
    return this.#options.maxRetries ?? DEFAULT_MAX_RETRIES;
  }

  /** Milliseconds per attempt. */
  get timeout(): number {
    return this.#options.timeout ?? DEFAULT_TIMEOUT_MS;
  }

  /** What `JSON.stringify(client)` writes: the settings, the key masked. */
  toJSON(): Record<string, unknown> {
    return {
      baseURL: this.baseURL,
      apiKey: '[redacted]',
      maxRetries: this.maxRetries,
      timeout: this.timeout,
      authHeader: this.#options.authHeader ?? 'bearer',
      logLevel: this.#options.logLevel,
    };
  }

  /** What `util.inspect(client)` and `console.log(client)` show. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Oz ${JSON.stringify(this.toJSON())}`;
  }
}
