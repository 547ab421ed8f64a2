import { OzError } from './errors.js';

/** The bound on one answer's body, by default: 64 MiB, counted after decompression. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * An answer's body passed `maxResponseBytes` (counted after decompression) while the SDK read it: the attempt was
 * aborted there, so no answer, however large or however it inflates, can hold more of the process's memory. Never
 * retried (the same request would get the same answer). A stream's events have their own bound
 * (`maxEventBytes`).
 */
export class OzResponseTooLargeError extends OzError {
  override name = 'OzResponseTooLargeError';
  /** The SDK's own code of this error, for a `switch (error.code)` over a call's `result()`. */
  readonly code = 'response_too_large' as const;
  /** The bound that was passed, in bytes (the call's `maxResponseBytes`). */
  readonly maxResponseBytes: number;
  /** The bytes read when the attempt was aborted (the bound and part of the last chunk). */
  readonly bytesRead: number;

  constructor(maxResponseBytes: number, bytesRead: number) {
    super(
      `The answer's body passed maxResponseBytes (${maxResponseBytes} bytes, counted after decompression) at ${bytesRead} bytes, ` +
        'and the attempt was aborted. Pass a larger maxResponseBytes (client or call option) to read larger answers.',
    );
    this.maxResponseBytes = maxResponseBytes;
    this.bytesRead = bytesRead;
  }
}
