import { checkedBaseURL } from './baseURL.js';
import type { CallSettings } from '../shared/call.js';
import { Credentials, keySourceFor } from '../shared/credentials.js';
import { OzUsageError } from '../errors/errors.js';
import { checkedMiddleware } from '../shared/middleware.js';
import type { RequestOptions } from '../shared/requestOptions.js';
import { isValidateMode } from '../shared/responseValidation.js';
import { checkedRetryPolicy } from '../shared/retryOptions.js';
import { checkedStreamBounds } from '../streams/streamBounds.js';

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
 * `base` with what `own` gives over it, each checked before anything is sent: a client's settings over the
 * transport's defaults (`where` is `''`), or a call's own options over its client's settings (`where` is
 * `'options.'`, the prefix of the option an `OzUsageError` names). A call's middleware runs inside its client's;
 * its `fetchOptions` go over its client's; its key (and the client's) are scrubbed from its log lines.
 */
export async function settingsOver(base: CallSettings, own: OwnSettings, where: '' | 'options.'): Promise<CallSettings> {
  const validate = own.validate ?? base.validate;
  if (!isValidateMode(validate)) throw new OzUsageError(`validate must be 'off', 'warn' or 'strict', not ${JSON.stringify(validate)}.`);
  const idleTimeout = own.idleTimeout ?? base.idleTimeout;
  const maxEventBytes = own.maxEventBytes ?? base.maxEventBytes;
  const streamTimeout = own.streamTimeout ?? base.streamTimeout;
  // Stream bounds given are checked before anything is sent (a call that gives none takes the stream's defaults).
  if (own.idleTimeout !== undefined || own.maxEventBytes !== undefined || own.streamTimeout !== undefined) checkedStreamBounds({ idleTimeout, maxEventBytes, streamTimeout });
  // A call to another base URL with its client's key: a key bound to its service (a profile's) is asked for that address.
  const serviceKey = own.apiKey === undefined && own.baseURL !== undefined ? keySourceFor(base.credentials.source, own.baseURL) : base.credentials.source;
  const credentials = own.apiKey !== undefined ? new Credentials(own.apiKey) : serviceKey !== base.credentials.source ? new Credentials(serviceKey) : base.credentials;
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
    baseURL: own.baseURL === undefined ? base.baseURL : checkedBaseURL(own.baseURL),
    authHeader: own.authHeader ?? base.authHeader,
    defaultHeaders: base.defaultHeaders,
    defaultQuery: base.defaultQuery,
    middleware: own.middleware === undefined ? base.middleware : [...base.middleware, ...checkedMiddleware(own.middleware, `${where}middleware`)],
    retry: own.retry === undefined ? base.retry : checkedRetryPolicy(base.retry, own.retry, `${where}retry`),
    logging,
    validate,
    idleTimeout,
    maxEventBytes,
    streamTimeout,
    fetch: own.fetch ?? base.fetch,
    fetchOptions: own.fetchOptions === undefined ? base.fetchOptions : base.fetchOptions === undefined ? own.fetchOptions : { ...base.fetchOptions, ...own.fetchOptions },
  };
}
