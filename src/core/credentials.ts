import { abortError } from './abortableSleep.js';
import { OzTimeoutError, OzUsageError } from './errors.js';

/**
 * The API key, or a function that gives it (sync or async). A function is asked for every call, and once more
 * after a 401 (the call is then retried once with the new key): switching what it answers rotates the key of a
 * running client. Cache in it whatever is costly to fetch.
 */
export type ApiKeySource = string | (() => string | Promise<string>);

// Keys seen are kept to scrub them from logs and errors; a provider minting a key per call must not grow it.
const KEPT_SECRETS = 8;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Where a client's (or a call's) key comes from: a fixed key, or the caller's provider. */
export class Credentials {
  readonly #source: ApiKeySource;
  /** The keys seen, newest last (a live array: loggers made with it scrub keys the provider gives later). */
  readonly secrets: string[] = [];

  constructor(source: ApiKeySource) {
    this.#source = source;
    if (typeof source === 'string') this.secrets.push(source);
  }

  /** The fixed key, or undefined when a provider gives it. */
  get fixed(): string | undefined {
    return typeof this.#source === 'string' ? this.#source : undefined;
  }

  /** Whether a 401 is worth asking the provider again (a fixed key would only 401 again). */
  get refreshable(): boolean {
    return typeof this.#source === 'function';
  }

  /** Whether this holds `source` (a derived client keeps its parent's credentials then). */
  holds(source: ApiKeySource): boolean {
    return this.#source === source;
  }

  /**
   * The key: the fixed one, or the provider's answer, bounded by `timeoutMs` and `signal` (a provider that never
   * settles gives `OzTimeoutError`, an aborted signal `OzAbortError`; one that throws or answers anything but a
   * non-empty string gives `OzUsageError`).
   */
  async key(signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
    const source = this.#source;
    if (typeof source === 'string') return source;
    let answer: unknown;
    try {
      answer = source();
      if (typeof answer === 'object' && answer !== null && typeof (answer as PromiseLike<unknown>).then === 'function') {
        answer = await bounded(answer as PromiseLike<unknown>, signal, timeoutMs);
      }
    } catch (cause) {
      if (signal?.aborted) throw abortError(signal);
      if (cause instanceof OzTimeoutError) throw cause;
      throw new OzUsageError(`The apiKey function failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (typeof answer !== 'string' || answer.trim() === '') {
      throw new OzUsageError(`The apiKey function gave ${answer === '' ? 'an empty string' : typeof answer}; it must give the key (ozk_...) as a non-empty string.`);
    }
    if (!this.secrets.includes(answer)) {
      this.secrets.push(answer);
      if (this.secrets.length > KEPT_SECRETS) this.secrets.shift();
    }
    return answer;
  }
}

function bounded<T>(work: PromiseLike<T>, signal: AbortSignal | undefined, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => done(() => reject(new OzTimeoutError(`The apiKey function did not settle within ${timeoutMs} ms (the attempt timeout).`))),
      Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS),
    );
    const onAbort = () => done(() => reject(signal!.reason));
    const done = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => done(() => resolve(value)),
      (error: unknown) => done(() => reject(error)),
    );
  });
}
