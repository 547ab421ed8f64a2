import { bindTransport, type CoreClient } from '../core/coreClient.js';
import type { CallFeatures } from '../core/callFeatures.js';
import { registerErrorCodes } from '../core/errors/errors.js';
import { FEATURES_ON_FIRST_USE } from '../core/featuresOnFirstUse.js';
import { Transport } from '../core/transport.js';
import { maxRetriesOf, resolveOptions, settingsOf, timeoutOf, transportConfigOf, type ClientOptions, type ResolvedOptions } from '../clientOptions.js';

let allErrorCodes: Promise<void> | undefined;

/**
 * Every error code's class, added to the table once: an error read from a stream's event or an execution record
 * may carry a code of any operation (a chunk loaded with the stream and the execution poller).
 */
function registerAllErrorCodes(): Promise<void> {
  return (allErrorCodes ??= import('../generated/errors.js').then(({ ERROR_CODES }) => registerErrorCodes(ERROR_CODES)));
}

/** The stream and the execution poller loaded on first use, each with the whole error table. */
const CORE_FEATURES: CallFeatures = {
  ...FEATURES_ON_FIRST_USE,
  stream: async (response, options) => {
    await registerAllErrorCodes();
    return await FEATURES_ON_FIRST_USE.stream!(response, options);
  },
  runs: async () => {
    await registerAllErrorCodes();
    return await FEATURES_ON_FIRST_USE.runs!();
  },
};

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
 * The stream of a streaming call and the execution poller (a pointer's `wait()`) are loaded on the first answer
 * that needs them. The key is held out of sight: it never shows in `util.inspect(core)`, `JSON.stringify(core)`,
 * a log line or an error.
 */
export class OzCore implements CoreClient {
  readonly #options: ResolvedOptions;

  /** Reads `apiKey`, `baseURL` and `logLevel` from `OZ_API_KEY`, `OZ_BASE_URL` and `OZ_LOG` when not given, as `Oz` does. */
  constructor(options: OzCoreOptions = {}) {
    // The error table holds the codes of the operations called (each function adds its own on its first call),
    // and every code once a stream or the execution poller is loaded (see CORE_FEATURES).
    this.#options = resolveOptions(options);
    bindTransport(this, new Transport(transportConfigOf(this.#options, CORE_FEATURES)));
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
