import { followAbort } from './sharedAbort.js';
import { abortError } from '../errors/errors.js';

/**
 * Waits `ms`, or rejects with `OzAbortError` as soon as `signal` aborts. It follows the signal through the one
 * listener shared by every call on it (`shared/sharedAbort.ts`), and stops following it either way.
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const unfollow = signal
      ? followAbort(signal, () => {
          clearTimeout(timer);
          reject(abortError(signal));
        })
      : undefined;
    const timer = setTimeout(() => {
      unfollow?.();
      resolve();
    }, ms);
  });
}
