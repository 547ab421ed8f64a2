import { abortError } from '../abortError.js';
import type { Credentials } from './credentials.js';
import { OzTimeoutError, OzUsageError } from '../errors/errors.js';
import { askProvider, type ProviderParts } from './keyProvider.js';

// Keys seen are kept to scrub them from logs and errors; a provider minting a key per call must not grow it.
const KEPT_SECRETS = 8;

const PROVIDER_PARTS: ProviderParts = { OzTimeoutError, OzUsageError, abortError };

/**
 * The key of `credentials`: the fixed one, or the provider's answer, bounded by `timeoutMs` and `signal` (a
 * provider that never settles gives `OzTimeoutError`, an aborted signal `OzAbortError`; one that throws or answers
 * anything but a non-empty string gives `OzUsageError`), kept among the secrets scrubbed from logs and errors.
 */
export async function providerKey(credentials: Credentials, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  const source = credentials.source;
  if (typeof source === 'string') return source;
  const answer = await askProvider(source, signal, timeoutMs, PROVIDER_PARTS);
  const secrets = credentials.secrets;
  if (!secrets.includes(answer) && secrets.push(answer) > KEPT_SECRETS) secrets.shift();
  return answer;
}
