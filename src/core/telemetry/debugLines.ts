import type { Call } from '../shared/call.js';
import { logOf, REDACTED } from '../shared/logger.js';

// The lines of `logLevel: 'debug'` (a call gathers them only at that level).

/** The request of an attempt, its credential headers masked. */
export function logAttempt(call: Call, attempt: number): void {
  logOf(call.settings.logging).debug(`${call.tag} ${call.op.method} ${call.url} (attempt ${attempt + 1} of ${call.maxRetries + 1})`, {
    headers: redactHeaders(new Headers(call.headers)),
  });
}

/** The answer of an attempt (`started`: when it was sent), its credential headers masked. */
export function logAnswer(call: Call, response: Response, started: number): void {
  logOf(call.settings.logging).debug(`${call.tag} ${response.status} after ${Date.now() - started} ms`, { headers: redactHeaders(response.headers) });
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Headers as a plain object for a log line, with credentials masked. */
function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
  });
  return out;
}
