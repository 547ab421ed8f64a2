import { bindTransport, type CoreClient } from '../core/coreClient.js';
import { registerErrorCodes } from '../core/errors/apiErrors.js';
import { ERROR_CODES } from '../generated/errors.js';
import { Transport } from '../core/transport.js';
import {
  maxRetriesOf,
  resolveClientOptions,
  settingsOf,
  timeoutOf,
  transportConfigOf,
  type ClientOptions,
  type ResolvedClientOptions,
} from '../clientOptions.js';

/**
 * Options of an {@link OzCore}: those of the `Oz` client but `mcpURL` (the standalone functions are the REST
 * operations; MCP is `oz-sdk/mcp`'s). Per call, the same names override them.
 */
export type OzCoreOptions = Omit<ClientOptions, 'mcpURL'>;

/**
 * The small client of `oz-sdk/funcs`: the key, base address and the transport's behaviour (2 retries with backoff
 * and `Retry-After`, 10-minute attempts, bearer auth, an `x-trace-id` on every write, the typed error of each
 * `X-Error-Code`, the same-origin redirect rule, path-segment and header checks) and nothing else. Each operation
 * is a function of its own that takes the core first, so a bundle carries only the operations it imports:
 *
 * @example
 * import { OzCore, toolsExecute } from 'oz-sdk/funcs';
 * const core = new OzCore({ apiKey: process.env.OZ_API_KEY, baseURL: 'https://oz.example.com' });
 * const result = await toolsExecute(core, 'echo', { params: { text: 'hi' } });
 *
 * The key is held out of sight: it never shows in `util.inspect(core)`, `JSON.stringify(core)`,
 * a log line or an error.
 */
export class OzCore implements CoreClient {
  readonly #options: ResolvedClientOptions;

  /** Reads `apiKey`, `baseURL` and `logLevel` from `OZ_API_KEY`, `OZ_BASE_URL` and `OZ_LOG` when not given, as `Oz` does. */
  constructor(options: OzCoreOptions = {}) {
    this.#options = resolveClientOptions(options, 'mcpURL');
    // Every code's class, as the `Oz` client has them.
    registerErrorCodes(ERROR_CODES);
    bindTransport(this, new Transport(transportConfigOf(this.#options)));
  }

  /** The base address calls go to. */
  get baseURL(): string {
    return this.#options.baseURL;
  }

  /** Retries after the first attempt. */
  get maxRetries(): number {
    return maxRetriesOf(this.#options);
  }

  /** Milliseconds per attempt. */
  get timeout(): number {
    return timeoutOf(this.#options);
  }

  /** What `JSON.stringify(core)` writes: the settings, the key masked. */
  toJSON(): Record<string, unknown> {
    return settingsOf(this.#options);
  }

  /** What `util.inspect(core)` and `console.log(core)` show. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `OzCore ${JSON.stringify(this.toJSON())}`;
  }
}
