import { abortError, OzTimeoutError, OzUsageError } from '../errors/errors.js';
import type { Credentials } from '../shared/credentials.js';
import { followAbort } from '../shared/sharedAbort.js';

// Keys seen are kept to scrub them from logs and errors; a provider minting a key per call must not grow it.
const KEPT_SECRETS = 8;

/**
 * The key of `credentials`: the fixed one, or the provider's answer, bounded by `timeoutMs` and `signal` (a
 * provider that never settles gives `OzTimeoutError`, an aborted signal `OzAbortError`; one that throws or answers
 * anything but a non-empty string gives `OzUsageError`), kept among the secrets scrubbed from logs and errors.
 */
export async function providerKey(credentials: Credentials, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  const source = credentials.source;
  if (typeof source === 'string') return source;
  const answer = await askProvider(source, signal, timeoutMs);
  const secrets = credentials.secrets;
  if (!secrets.includes(answer) && secrets.push(answer) > KEPT_SECRETS) secrets.shift();
  return answer;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The provider's key, bounded by `timeoutMs` and `signal`: one that never settles gives `OzTimeoutError`, an
 * aborted signal `OzAbortError`, one that throws or answers anything but a non-empty string `OzUsageError`.
 */
async function askProvider(provider: () => string | Promise<string>, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  let answer: unknown;
  try {
    answer = provider();
    if (typeof answer === 'object' && answer !== null && typeof (answer as PromiseLike<unknown>).then === 'function') {
      answer = await bounded(
        answer as PromiseLike<unknown>,
        signal,
        timeoutMs,
        () => new OzTimeoutError(`The apiKey function did not settle within ${timeoutMs} ms (the attempt timeout).`),
      );
    }
  } catch (cause) {
    if (signal?.aborted) throw abortError(signal);
    // The SDK's own errors (the profile reader's usage error names where keys are looked for) are kept as they are.
    if (cause instanceof OzTimeoutError || cause instanceof OzUsageError) throw cause;
    throw new OzUsageError(`The apiKey function failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (typeof answer !== 'string' || answer.trim() === '') {
    throw new OzUsageError(
      `The apiKey function gave ${answer === '' ? 'an empty string' : typeof answer}; it must give the key (ozk_...) as a non-empty string.`,
    );
  }
  return answer;
}

function bounded<T>(work: PromiseLike<T>, signal: AbortSignal | undefined, timeoutMs: number, timeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => done(() => reject(timeout())), Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS));
    let unfollow: (() => void) | undefined;
    const onAbort = () => done(() => reject(signal!.reason));
    const done = (settle: () => void) => {
      clearTimeout(timer);
      unfollow?.();
      settle();
    };
    if (signal?.aborted) return onAbort();
    // Through the signal's one listener shared by every call on it.
    if (signal) unfollow = followAbort(signal, onAbort);
    work.then(
      (value) => done(() => resolve(value)),
      (error: unknown) => done(() => reject(error)),
    );
  });
}
