import type { Call } from './call.js';
import { logOf, scrubSecrets } from './logger.js';

/** A typed error about to be thrown by a call: scrubbed of the key (message and stack), and logged at `info`. */
export function finalError(call: Call, error: unknown): unknown {
  if (error instanceof Error) {
    error.message = scrubSecrets(error.message, call.settings.credentials.secrets);
    if (error.stack) error.stack = scrubSecrets(error.stack, call.settings.credentials.secrets);
    logOf(call.settings.logging).info(`${call.tag} ${call.op.method} ${call.op.path} failed: ${error.message}`);
  }
  return error;
}
