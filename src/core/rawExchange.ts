import type { CallPort } from './shared/call.js';
import { finalError } from './retry/finalError.js';
import type { Operation } from './shared/operation.js';
import type { RequestOptions } from './shared/requestOptions.js';
import { traced, withSpan } from './telemetry/traceSpan.js';
import { registeredTracing } from './telemetry/registeredTracing.js';

/**
 * Sends a request built elsewhere (the raw client's, from openapi-fetch: `rawCalls.ts` reads it) as one call of
 * `op` to `url`: `body` its bytes as given, `headers` over the call's own (but the credential headers), with the
 * client's key and headers, retries, trace id, span and typed errors (a non-2xx answer throws). Answers the 2xx
 * answer, its body read, or left open in `stream` mode (the span then ends at the headers: the body is the
 * caller's to read). A lost answer found by a retry throws the `DuplicateExecutionIdError`.
 */
export async function exchange(
  port: CallPort,
  op: Operation,
  url: string,
  body: string | undefined,
  headers: Headers,
  options: RequestOptions,
  mode: 'parse' | 'stream',
): Promise<{ response: Response; text: string }> {
  const call = await withSpan(await port.prepare(op, { url }, options, mode), registeredTracing());
  headers.forEach((value, name) => {
    if (name !== 'authorization' && name !== 'x-api-key') call.headers[name] = value;
  });
  if (!headers.has('content-type') && body !== undefined) call.headers['content-type'] = 'application/json';
  const sent = { ...call, body };
  return await traced(
    sent,
    async () => {
      const answer = await port.send(sent);
      if (answer.kind === 'lost') throw finalError(sent, answer.conflict);
      return answer.answer;
    },
    () => true,
  );
}
