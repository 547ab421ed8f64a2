import type { ParsedResponse, RateLimitInfo, ReaderParts, WithResponse } from './answerTypes.js';
import type { CallResult } from './callResult.js';

// What `withResponse()`, `asResponse()` and `result()` of an `APIPromise` do once its answer came: loaded on the
// first such call (most calls are only awaited). The client's parts are handed in (`ReaderParts`): this chunk
// shares no module with the client's.

/** The data with the raw `Response`, `x-request-id`, `X-Execution-Id` and the rate-limit headers. */
export function withResponseOf<T>(parsed: ParsedResponse<T>, parts: ReaderParts): WithResponse<T> {
  const { response } = parsed;
  return {
    data: parts.parsedData(parsed),
    response,
    requestId: response.headers.get('x-request-id'),
    executionId: response.headers.get('x-execution-id'),
    rateLimit: rateLimitOf(response.headers),
  };
}

/** The raw answer: as it came when its body was left unread, else a copy of the body read (none for an empty one: a 204 may have none). */
export function responseOf(parsed: ParsedResponse<unknown>): Response {
  const { response, text } = parsed;
  return response.bodyUsed && text !== undefined ? new Response(text || null, response) : response;
}

/** A call's outcome as a value: the data and its answer, or the SDK's typed error and the answer it came with. */
export async function resultOf<T, E>(parsed: Promise<ParsedResponse<T>>, parts: ReaderParts): Promise<CallResult<T, E>> {
  try {
    const answer = await parsed;
    return { data: parts.parsedData(answer), response: answer.response, error: undefined };
  } catch (error) {
    if (!(error instanceof parts.OzError)) throw error;
    return { data: undefined, response: parts.answerOf(error), error: error as E };
  }
}

/** The rate-limit headers of an answer. */
export function rateLimitOf(headers: Headers): RateLimitInfo {
  const read = (name: string) => {
    const value = headers.get(name);
    const number = value === null || value.trim() === '' ? Number.NaN : Number(value);
    return Number.isFinite(number) ? number : null;
  };
  return { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') };
}
