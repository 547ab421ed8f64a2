import { Transport } from './core/transport.js';
import type { FetchLike } from './core/requestOptions.js';
import { OzError } from './core/errors.js';
import { OzResources } from './generated/index.js';

/** Options of an {@link Oz} client. */
export interface ClientOptions {
  /** The platform key (`ozk_...`). Defaults to `process.env.OZ_API_KEY`. */
  apiKey?: string;
  /** The service's base address. Defaults to `process.env.OZ_BASE_URL`; there is no public default. */
  baseURL?: string;
  /** Any Fetch-API function, for example the embedded server's `server.fetch`. Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Headers sent on every call. */
  defaultHeaders?: Record<string, string>;
}

const env = (name: string): string | undefined =>
  typeof process === 'undefined' ? undefined : process.env[name]?.trim() || undefined;

/**
 * The Oz client: one property per resource of the API (`client.tools.execute(...)`,
 * `client.companies.items.create(...)`), each method generated from openapi.json.
 */
export class Oz extends OzResources {
  constructor(options: ClientOptions = {}) {
    const baseURL = options.baseURL ?? env('OZ_BASE_URL');
    if (!baseURL) throw new OzError('No base URL: pass `baseURL` or set OZ_BASE_URL (the service has no public default).');
    const apiKey = options.apiKey ?? env('OZ_API_KEY');
    if (!apiKey) throw new OzError('No API key: pass `apiKey` or set OZ_API_KEY.');
    super(new Transport({ baseURL, apiKey, fetch: options.fetch, defaultHeaders: options.defaultHeaders }));
  }
}
