/**
 * The API key, or a function that gives it (sync or async). A function is asked for every call, and once more
 * after a 401 (the call is then retried once with the new key): switching what it answers rotates the key of a
 * running client. Cache in it whatever is costly to fetch.
 */
export type ApiKeySource = string | (() => string | Promise<string>);

/**
 * Where a client's (or a call's) key comes from: a fixed key, or the caller's provider, whose keys
 * `providerKey.ts` asks for.
 */
export class Credentials {
  /** The key, or the provider (a derived client keeps its parent's credentials when it is the same). */
  readonly source: ApiKeySource;
  /** The keys seen, newest last (a live array: loggers made with it scrub keys the provider gives later). */
  readonly secrets: string[];

  constructor(source: ApiKeySource) {
    this.source = source;
    this.secrets = typeof source === 'string' ? [source] : [];
  }
}

// Key providers that belong to one service (a profile's key): for another base URL, the provider of that address.
const PER_SERVICE = new WeakMap<object, (baseURL: string) => ApiKeySource>();

/**
 * Marks `source` as the key of one service: a call made to another base URL asks `forBaseURL(baseURL)` for its key
 * instead (a profile's key is bound to the base URL stored with it). Answers `source`.
 */
export function keyOfService<F extends () => string | Promise<string>>(source: F, forBaseURL: (baseURL: string) => ApiKeySource): F {
  PER_SERVICE.set(source, forBaseURL);
  return source;
}

/** The key source of a call to `baseURL` made with a client's `source`: another for a service's own key, else `source`. */
export function keySourceFor(source: ApiKeySource, baseURL: string): ApiKeySource {
  const forBaseURL = typeof source === 'function' ? PER_SERVICE.get(source) : undefined;
  return forBaseURL === undefined ? source : forBaseURL(baseURL);
}
