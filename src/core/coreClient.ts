import { OzUsageError } from './errors/errors.js';
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

/** The transport of a core; a usage error for anything but one (a function called without `new OzCore(...)`). */
export function transportOf(core: CoreClient): Transport {
  const transport = typeof core === 'object' && core !== null ? TRANSPORTS.get(core) : undefined;
  if (transport === undefined) {
    throw new OzUsageError(
      'A standalone function takes an OzCore as its first argument: `const core = new OzCore({ apiKey, baseURL })`, then `toolsExecute(core, ...)`.',
    );
  }
  return transport;
}
