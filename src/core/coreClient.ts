import { OzUsageError, registerErrorCodes, type ErrorCodeEntry } from './errors/errors.js';
import type { Transport } from './transport.js';

/**
 * What a standalone function of `oz-sdk/funcs` is called with: a client whose transport the call goes through
 * (`OzCore` is one). Its transport is kept out of sight (not a property), as the `Oz` client keeps its own.
 */
export interface CoreClient {
  /** The base address calls go to. */
  readonly baseURL: string;
}

const TRANSPORTS = new WeakMap<CoreClient, Transport>();

/** Makes `client` a core that standalone functions send through `transport` (once, by its constructor). */
export function bindTransport(client: CoreClient, transport: Transport): void {
  TRANSPORTS.set(client, transport);
}

// The operations' error tables already added to the transport's table.
const REGISTERED = new WeakSet<object>();

/**
 * The transport of a core; a usage error for anything but one (a function called without `new OzCore(...)`).
 * `errors`: the typed errors of the calling operation's codes, added to the error table on its first call.
 */
export function transportOf(core: CoreClient, errors?: Readonly<Record<string, ErrorCodeEntry>>): Transport {
  const transport = typeof core === 'object' && core !== null ? TRANSPORTS.get(core) : undefined;
  if (transport === undefined) {
    throw new OzUsageError('A standalone function takes an OzCore as its first argument: `const core = new OzCore({ apiKey, baseURL })`, then `toolsExecute(core, ...)`.');
  }
  if (errors !== undefined && !REGISTERED.has(errors)) {
    registerErrorCodes(errors);
    REGISTERED.add(errors);
  }
  return transport;
}
