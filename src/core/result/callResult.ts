import type { OzAbortError, OzConnectionError, OzTimeoutError, OzUsageError } from '../errors/errors.js';
import type { OzRedirectError } from '../errors/redirectError.js';
import type { OzResponseTooLargeError } from '../errors/responseTooLargeError.js';
import type { OzResponseValidationError } from '../errors/responseValidationError.js';

/**
 * The errors the SDK raises itself, whatever the operation: the connection failed or was cut, an attempt timed
 * out, the caller aborted, the call could not be sent as given, the service redirected to another origin, the answer passed `maxResponseBytes`, or (`validate: 'strict'`) the answer does not
 * match openapi.json. Each has its own `code`.
 */
export type OzClientError =
  OzConnectionError | OzTimeoutError | OzAbortError | OzUsageError | OzRedirectError | OzResponseTooLargeError | OzResponseValidationError;

/**
 * What a call's `result()` resolves to: the data and the raw answer, or the error as a value. `response` is
 * undefined when no answer came (a connection error, a timeout, an abort, a usage error).
 */
export type CallResult<T, E> = { data: T; response: Response; error: undefined } | { data: undefined; response: Response | undefined; error: E };

// The answer each API error was read from: `result()` hands it back beside the error.
const ANSWERS = new WeakMap<object, Response>();

/** Remembers the answer an error was read from. */
export function rememberAnswer(error: object, response: Response): void {
  ANSWERS.set(error, response);
}

/** The answer an error was read from, if any. */
export function answerOf(error: unknown): Response | undefined {
  return typeof error === 'object' && error !== null ? ANSWERS.get(error) : undefined;
}
