import type { SignInOptions, SignInResult } from './signInOptions.js';
import type { FetchLike } from '../core/shared/requestOptions.js';
import { inProcessAddressMiss } from '../core/shared/inProcessAddress.js';
import { SignInError } from './signInError.js';
import { loadPart } from '../core/shared/optionalPart.js';
import { escapedControls } from '../core/shared/printable.js';
import { OzUsageError } from '../core/errors/errors.js';
import { boundedText } from '../core/shared/boundedText.js';

export type { SignInOptions, SignInResult } from './signInOptions.js';

/** How long a one-time sign-in code stays valid on the dashboard, in milliseconds. */
export const SIGN_IN_CODE_VALIDITY_MS = 120_000;

/**
 * Runs the command-line sign-in: listens on 127.0.0.1 on a free port, makes a random `state`, gives the
 * dashboard's authorize URL, accepts only a callback that carries the same `state`, exchanges the one-time code
 * at `POST {dashboard}/api/cli/token` and returns the key. The listener is closed on every path (success, error,
 * timeout, abort). The key is never logged. Node only: on a runtime without Node's modules it rejects with an
 * `OzUsageError` that says so.
 */
export async function signIn(options: SignInOptions = {}): Promise<SignInResult> {
  // An optional part: most programs that bundle the client never sign in. What the flow needs of the client's
  // modules is handed to it rather than imported: a lazy module that shares no module with the client stays one
  // lazy chunk in a bundle (esbuild splits shared modules into chunks of their own).
  // The built package loads it as `#sign-in` (tsup.config.ts): off Node, a stand-in whose `runSignIn` is an `OzUsageError`.
  const { runSignIn } = await loadPart('sign-in', () => import('./signInFlow.js'));
  return await runSignIn(options, {
    SignInError,
    UsageError: OzUsageError,
    codeValidityMs: SIGN_IN_CODE_VALIDITY_MS,
    inProcessAddressMiss,
    escapedControls,
    boundedText,
  });
}
