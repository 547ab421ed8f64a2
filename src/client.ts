import { registerErrorCodes } from './core/errors/apiErrors.js';
import type { ApiKeySource } from './core/shared/credentials.js';
import { Transport } from './core/transport.js';
import { checkOptions } from './core/options/checkOptions.js';
import type { JsonRequestOptions } from './core/result/resultTypes.js';
import { maxRetriesOf, resolveClientOptions, settingsOf, timeoutOf, transportConfigOf, type ClientOptions } from './clientOptions.js';
import type { WhoAmI } from './generated/index.js';
import { OzResources } from './generated/index.js';
import { ERROR_CODES } from './generated/errors.js';
import { Executions } from './resources/executions.js';
import { McpClient } from './mcp/mcpClient.js';
import { createRawClient, type OzRawClient } from './raw/rawClient.js';
import { isProfileKey } from './profiles/profileApiKey.js';

export type { ClientOptions } from './clientOptions.js';

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
    const resolved = resolveClientOptions(options);
    const parent = (options as DerivedOptions)[PARENT_TRANSPORT];
    const config = transportConfigOf(resolved);
    const transport = new Transport(config, parent);
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
    // Checked as given, before they are merged with this client's (a `retry` of 5 would merge as nothing).
    checkOptions(options, 'client');
    const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ClientOptions;
    const parent = this.#options;
    const derived: DerivedOptions = { ...parent, ...defined, [PARENT_TRANSPORT]: this.#transport };
    // A profile's key is bound to its client's base URL: another base URL looks its key up again.
    if (defined.baseURL !== undefined && defined.apiKey === undefined && isProfileKey(parent.apiKey)) derived.apiKey = undefined;
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
    return maxRetriesOf(this.#options);
  }

  /** Milliseconds per attempt. */
  get timeout(): number {
    return timeoutOf(this.#options);
  }

  /** What `JSON.stringify(client)` writes: the settings, the key masked. */
  toJSON(): Record<string, unknown> {
    return settingsOf(this.#options);
  }

  /** What `util.inspect(client)` and `console.log(client)` show. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Oz ${JSON.stringify(this.toJSON())}`;
  }
}
