import type { CallExtras } from '../core/callExtras.js';

let loaded: Promise<CallExtras> | undefined;

/**
 * The call path's rarely used parts (loadedFeatures.ts, as the `Oz` client has them: the stream and its parser,
 * the execution poller, the retry loop and the reader of an error answer among them), loaded together on the first
 * call or answer that needs any of them, with the generated error classes installed as the code table (they read
 * every answer that names an error code: an error answer, a stream's error events, a pointer's failed record). A
 * bundle of a standalone function whose calls are answered 2xx carries none of it, and its errors are those of the
 * `Oz` client (every code's class). The built package puts what is imported here in one lazy chunk (tsup.config.ts).
 */
export const EXTRAS_ON_FIRST_USE = (): Promise<CallExtras> =>
    (loaded ??= Promise.all([import('../core/loadedFeatures.js'), import('../generated/errors.js'), import('../core/errors/apiErrors.js')]).then(
      ([{ LOADED_EXTRAS }, { ERROR_CODES }, { registerErrorCodes }]) => (registerErrorCodes(ERROR_CODES), LOADED_EXTRAS()),
    ));
