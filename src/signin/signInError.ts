import { OzError } from '../core/errors/errors.js';

/**
 * Why a command-line sign-in failed: no callback in time (`timeout`), the signal aborted (`aborted`), the user
 * refused at the dashboard (`denied`), the token exchange answered an error or failed (`exchange_failed`: a used,
 * expired or unknown code), or an answer the SDK cannot read, or no dashboard URL (`invalid_answer`).
 */
export type SignInFailure = 'timeout' | 'aborted' | 'denied' | 'exchange_failed' | 'invalid_answer';

/** The command-line sign-in did not give a key. The listener is closed whatever the reason. */
export class SignInError extends OzError {
  override name = 'SignInError';
  /** Why the sign-in failed. */
  readonly reason: SignInFailure;
  /** The HTTP status of the token exchange, when it answered an error. */
  readonly status: number | undefined;

  constructor(reason: SignInFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
  }
}
