import type { ApiKeySource } from './core/shared/credentials.js';
import { OzUsageError } from './core/errors/errors.js';
import type { Logger } from './core/shared/logger.js';
import { parseLogLevel, scrubText, type LogLevel } from './core/shared/logger.js';
import { checkedBaseURL } from './core/options/baseURL.js';
import { checkOptions } from './core/options/checkOptions.js';
import type { Middleware } from './core/shared/middleware.js';
import type { AuthHeader, FetchLike, FetchOptions, QueryParams } from './core/shared/requestOptions.js';
import type { ValidateMode } from './core/shared/responseValidation.js';
import type { RetryOptions } from './core/shared/retryOptions.js';
import { callsStayInProcess, isBrowser } from './core/shared/runtime.js';
import { loadPart } from './core/shared/optionalPart.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type TransportConfig } from './core/transport.js';
import { getExecutionOperation } from './generated/operations.js';
import { profileApiKey } from './profiles/profileApiKey.js';

// The options of a client and how they are read (the environment, the profile file) and handed to the transport:
// one place for the `Oz` client and for `OzCore` (`oz-sdk/funcs`).

/**
 * Options of an `Oz` client (and of an `OzCore`, but `mcpURL`). Per call (`RequestOptions`), the same names override them, except
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
  /**
   * Bytes of one answer's body the SDK reads at most, counted after decompression; past them the attempt is
   * aborted and the call rejects with `OzResponseTooLargeError` (never retried). Default 64 MiB; `Infinity` lifts
   * it. A stream's events have their own bound, `maxEventBytes`.
   */
  maxResponseBytes?: number | undefined;
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

const env = (name: string): string | undefined => (typeof process === 'undefined' ? undefined : process.env?.[name]?.trim() || undefined);

/**
 * The options of a client with the environment's values filled in, each option given checked first by its row of
 * the option table (`core/options/optionTable.ts`); `skip` names an option the client does not take (an
 * `OzCore`'s `mcpURL`), left unread.
 */
export function resolveClientOptions(options: ClientOptions, skip?: keyof ClientOptions): ClientOptions & { baseURL: string; apiKey: ApiKeySource } {
  checkOptions(options, 'client', skip);
  const baseURL = options.baseURL ?? env('OZ_BASE_URL');
  if (isBrowser() && !options.dangerouslyAllowBrowser && !callsStayInProcess(options.fetch, baseURL)) {
    throw new OzUsageError(
      'The Oz client refuses to run in a browser, where its API key would be exposed to every visitor. ' +
        'Call Oz from a server; if you really mean it, pass `dangerouslyAllowBrowser: true`.',
    );
  }
  if (!baseURL) throw new OzUsageError('No base URL: pass `baseURL` or set OZ_BASE_URL (the service has no public default).');
  // The option is checked with the others; the environment's value here.
  if (options.baseURL === undefined) checkedBaseURL(baseURL, 'OZ_BASE_URL');
  // The key: the option, OZ_API_KEY, then the selected profile (Node only), read on the first call.
  const apiKey = options.apiKey ?? env('OZ_API_KEY') ?? profileApiKey(baseURL);
  if (!apiKey) throw new OzUsageError('No API key: pass `apiKey` or set OZ_API_KEY (profiles of `oz sign-in` are read on Node only).');
  let logLevel = options.logLevel;
  const fromEnv = env('OZ_LOG');
  if (logLevel === undefined && fromEnv !== undefined) {
    logLevel = parseLogLevel(fromEnv);
    if (logLevel === undefined) {
      // Written at once (the level in force is warn), the key scrubbed as every log line's is.
      (options.logger ?? console).warn(
        scrubText(
          `OZ_LOG is ${JSON.stringify(fromEnv)}; expected one of off, error, warn, info, debug. Using warn.`,
          typeof apiKey === 'string' ? [apiKey] : [],
        ),
      );
    }
  }
  const mcpURL = options.mcpURL ?? env('OZ_MCP_URL');
  return { ...options, baseURL, apiKey, mcpURL, logLevel: logLevel ?? 'warn' };
}

/** The client's options with the environment's values filled in. */
export type ResolvedClientOptions = ReturnType<typeof resolveClientOptions>;

/**
 * The transport's config of a client's resolved options. The
 * options are handed on as they are: each option the transport reads has the same name in both (a client's own
 * options, `mcpURL` and `dangerouslyAllowBrowser`, ride along unread).
 */
export function transportConfigOf(resolved: ResolvedClientOptions): TransportConfig {
  return {
    ...resolved,
    executionRecord: getExecutionOperation,
    // An optional part: a program that never turns validation on never loads it.
    loadValidators: () => loadPart('the response validators', () => import('./generated/responseValidators.js')),
    // The transport's own knobs (tests shrink them) are not client options: an untyped option of that name is unread.
    backoff: undefined,
    pollIntervalMs: undefined,
  };
}

/** A client's retries after the first attempt: its option, else the default. */
export function maxRetriesOf(resolved: ResolvedClientOptions): number {
  return resolved.maxRetries ?? DEFAULT_MAX_RETRIES;
}

/** A client's milliseconds per attempt: its option, else the default. */
export function timeoutOf(resolved: ResolvedClientOptions): number {
  return resolved.timeout ?? DEFAULT_TIMEOUT_MS;
}

/** What `JSON.stringify` writes of a client (`Oz`, `OzCore`): its settings, the key masked. */
export function settingsOf(resolved: ResolvedClientOptions): Record<string, unknown> {
  return {
    baseURL: resolved.baseURL,
    apiKey: '[redacted]',
    maxRetries: maxRetriesOf(resolved),
    timeout: timeoutOf(resolved),
    authHeader: resolved.authHeader ?? 'bearer',
    logLevel: resolved.logLevel,
  };
}
