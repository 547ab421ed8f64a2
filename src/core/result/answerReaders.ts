import { OzError, OzUsageError } from '../errors/errors.js';
import type { ParsedResponse, RateLimitInfo, WithResponse } from './answerTypes.js';
import { answerOf, type CallResult } from './callResult.js';

// What `withResponse()`, `asResponse()` and `result()` of an `APIPromise` do once its answer came.

/** The data of a parsed answer, or the usage error of a body `asResponse()` took. */
export function parsedData<T>(parsed: ParsedResponse<T>): T {
  if (parsed.unread) throw new OzUsageError("asResponse() took this call's body: read it from that Response.");
  return parsed.data;
}

/** The data with the raw `Response`, `x-request-id`, `X-Execution-Id` and the rate-limit headers. */
export function withResponseOf<T>(parsed: ParsedResponse<T>): WithResponse<T> {
  const { response } = parsed;
  return {
    data: parsedData(parsed),
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
export async function resultOf<T, E>(parsed: Promise<ParsedResponse<T>>): Promise<CallResult<T, E>> {
  try {
    const answer = await parsed;
    return { data: parsedData(answer), response: answer.response, error: undefined };
  } catch (error) {
    if (!(error instanceof OzError)) throw error;
    return { data: undefined, response: answerOf(error), error: error as E };
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
