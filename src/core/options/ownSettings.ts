import type { RequestOptions } from './requestOptions.js';

/**
 * The call options that change a call's `CallSettings` (call.ts) over its client's: a call that gives none of them
 * (most calls) is made with its client's settings as they are, without loading `callSettings.ts`.
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
