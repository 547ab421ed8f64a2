import { abortError } from './abortError.js';
import { OzTimeoutError, OzUsageError } from './errors/errors.js';
import type { ProviderParts } from './keyProvider.js';

/**
 * The API key, or a function that gives it (sync or async). A function is asked for every call, and once more
 * after a 401 (the call is then retried once with the new key): switching what it answers rotates the key of a
 * running client. Cache in it whatever is costly to fetch.
 */
export type ApiKeySource = string | (() => string | Promise<string>);

// Keys seen are kept to scrub them from logs and errors; a provider minting a key per call must not grow it.
const KEPT_SECRETS = 8;

/** Where a client's (or a call's) key comes from: a fixed key, or the caller's provider. */
export class Credentials {
  /** The key, or the provider (a derived client keeps its parent's credentials when it is the same). */
  readonly source: ApiKeySource;
  /** The keys seen, newest last (a live array: loggers made with it scrub keys the provider gives later). */
  readonly secrets: string[];

  constructor(source: ApiKeySource) {
    this.source = source;
    this.secrets = typeof source === 'string' ? [source] : [];
  }

  /**
   * The key: the fixed one, or the provider's answer, bounded by `timeoutMs` and `signal` (a provider that never
   * settles gives `OzTimeoutError`, an aborted signal `OzAbortError`; one that throws or answers anything but a
   * non-empty string gives `OzUsageError`).
   */
  async key(signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
    const source = this.source;
    if (typeof source === 'string') return source;
    const { askProvider } = await (keyProvider ??= import('./keyProvider.js'));
    const answer = await askProvider(source, signal, timeoutMs, PROVIDER_PARTS);
    if (!this.secrets.includes(answer) && this.secrets.push(answer) > KEPT_SECRETS) this.secrets.shift();
    return answer;
  }
}

let keyProvider: Promise<typeof import('./keyProvider.js')> | undefined;
const PROVIDER_PARTS: ProviderParts = { OzTimeoutError, OzUsageError, abortError };
