import type { CallClient } from '../shared/call.js';
import type { Logger } from '../shared/logger.js';
import type { RequestOptions } from '../shared/requestOptions.js';

/**
 * Options a call still takes though they belong to a client (the key, where and how calls go, the logging): per
 * call they are deprecated; `oz.withOptions()` makes a client with them.
 */
export const CLIENT_ONLY_OPTIONS = ['apiKey', 'baseURL', 'authHeader', 'fetch', 'logLevel', 'logger'] as const satisfies ReadonlyArray<keyof RequestOptions>;

// The options each client has warned of (once per client and option).
const WARNED = new WeakMap<CallClient, Set<string>>();

/** Warns, once per client and option, of a call that gives a client's option. */
export function warnClientOnlyOptions(client: CallClient, options: RequestOptions, log: Logger): void {
  for (const name of CLIENT_ONLY_OPTIONS) {
    if (options[name] === undefined) continue;
    let warned = WARNED.get(client);
    if (warned === undefined) WARNED.set(client, (warned = new Set()));
    if (warned.has(name)) continue;
    warned.add(name);
    log.warn(
      `options.${name} on a call is deprecated: it belongs to a client. Make one with oz.withOptions({ ${name} }) and call through it (this call still used it).`,
    );
  }
}
