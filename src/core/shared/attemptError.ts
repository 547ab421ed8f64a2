import type { AttemptSignal } from './attemptSignal.js';
import { abortError, type OzAbortError, OzConnectionError, OzTimeoutError } from '../errors/errors.js';

// undici's own timeouts of Node's built-in fetch (300 s each by default).
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The typed error of an attempt that failed (`cause`, what its fetch or body read rejected with): aborted by the
 * caller, timed out (the SDK's deadline, or undici's own before it), or a connection failure.
 */
export function attemptErrorOf(signal: AttemptSignal, cause: unknown): OzAbortError | OzConnectionError {
  const caller = signal.caller;
  if (caller?.aborted) return abortError(caller);
  if (signal.timedOut) return new OzTimeoutError(`The attempt timed out after ${signal.timeoutMs} ms.`, { cause });
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof code === 'string' && UNDICI_TIMEOUTS.has(code)) {
    return new OzTimeoutError(
      `Node's fetch (undici) gave up after its own ${code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headersTimeout' : 'bodyTimeout'} ` +
        '(300 s by default), before the SDK timeout; pass a `fetch` using an undici Agent with longer timeouts to wait longer.',
      { cause },
    );
  }
  return new OzConnectionError('The connection failed before a complete answer came.', { cause });
}
