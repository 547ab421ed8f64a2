import { OzAbortError } from './errors/errors.js';

/** The typed abort error of a signal, carrying its reason. */
export function abortError(signal: AbortSignal | undefined): OzAbortError {
  return new OzAbortError('The call was aborted.', { cause: signal?.reason });
}
