import type { CallSettings } from '../shared/call.js';
import { Credentials, keySourceFor } from '../shared/credentials.js';
import type { RequestOptions } from '../shared/requestOptions.js';
import { retryPolicyOver } from '../shared/retryOptions.js';

/**
 * The call options that change a call's `CallSettings` (call.ts) over its client's: a call that gives none of them
 * (most calls) is made with its client's settings as they are.
 */
export const OWN_SETTINGS = [
  'apiKey',
  'baseURL',
  'authHeader',
  'middleware',
  'retry',
  'logger',
  'logLevel',
  'validate',
  'idleTimeout',
  'maxEventBytes',
  'streamTimeout',
  'fetch',
  'fetchOptions',
] as const satisfies ReadonlyArray<keyof RequestOptions>;

/** The options of {@link OWN_SETTINGS}. */
export type OwnSettings = Pick<RequestOptions, (typeof OWN_SETTINGS)[number]>;

/** Whether `options` gives any of {@link OWN_SETTINGS}. */
export function hasOwnSettings(options: RequestOptions): boolean {
  for (const name of OWN_SETTINGS) if (options[name] !== undefined) return true;
  return false;
}

/**
 * `base` with what `own` gives over it: a client's settings over the transport's defaults, or a call's own options
 * over its client's settings. Each option was checked where it was given (`options/checkOptions.ts`, by the option
 * table). A call's middleware runs inside its client's; its `fetchOptions` go over its client's; its key (and the
 * client's) are scrubbed from its log lines.
 */
export async function settingsOver(base: CallSettings, own: OwnSettings): Promise<CallSettings> {
  const validate = own.validate ?? base.validate;
  const idleTimeout = own.idleTimeout ?? base.idleTimeout;
  const maxEventBytes = own.maxEventBytes ?? base.maxEventBytes;
  const streamTimeout = own.streamTimeout ?? base.streamTimeout;
  // A call to another base URL with its client's key: a key bound to its service (a profile's) is asked for that address.
  const serviceKey = own.apiKey === undefined && own.baseURL !== undefined ? keySourceFor(base.credentials.source, own.baseURL) : base.credentials.source;
  const credentials =
    own.apiKey !== undefined ? new Credentials(own.apiKey) : serviceKey !== base.credentials.source ? new Credentials(serviceKey) : base.credentials;
  const logging =
    own.logger === undefined && own.logLevel === undefined && credentials === base.credentials
      ? base.logging
      : {
          logger: own.logger ?? base.logging.logger,
          level: own.logLevel ?? base.logging.level,
          secrets: credentials === base.credentials ? base.logging.secrets : [credentials.secrets, ...base.logging.secrets],
        };
  return {
    credentials,
    baseURL: own.baseURL ?? base.baseURL,
    authHeader: own.authHeader ?? base.authHeader,
    defaultHeaders: base.defaultHeaders,
    defaultQuery: base.defaultQuery,
    middleware: own.middleware === undefined ? base.middleware : [...base.middleware, ...own.middleware],
    retry: own.retry === undefined ? base.retry : retryPolicyOver(base.retry, own.retry),
    logging,
    validate,
    idleTimeout,
    maxEventBytes,
    streamTimeout,
    fetch: own.fetch ?? base.fetch,
    fetchOptions:
      own.fetchOptions === undefined ? base.fetchOptions : base.fetchOptions === undefined ? own.fetchOptions : { ...base.fetchOptions, ...own.fetchOptions },
  };
}
