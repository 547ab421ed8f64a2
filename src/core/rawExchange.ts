import { runRawCall } from './callChain.js';
import type { Call } from './shared/call.js';

/**
 * Sends a request built elsewhere (the raw client's, from openapi-fetch: `rawCalls.ts` reads it) as `call`, made
 * for its URL: `body` its bytes as given, `headers` over the call's own (but the credential headers), with the
 * client's key and headers, retries, trace id, span and typed errors (a non-2xx answer throws), through the raw
 * steps (`callChain.ts`). Answers the 2xx answer, its body read, or left open in `stream` mode (the span then ends
 * at the headers: the body is the caller's to read). A lost answer found by a retry throws the
 * `DuplicateExecutionIdError`.
 */
export async function exchange(call: Call, body: string | undefined, headers: Headers): Promise<{ response: Response; text: string }> {
  headers.forEach((value, name) => {
    if (name !== 'authorization' && name !== 'x-api-key') call.headers[name] = value;
  });
  if (!headers.has('content-type') && body !== undefined) call.headers['content-type'] = 'application/json';
  const { response, text } = await runRawCall({ ...call, body });
  return { response, text };
}
