// The types of a call's answer as an `APIPromise` hands it out (apiPromise.ts) and its readers read it (answerReaders.ts).

/** The answer of a call with its metadata, as `withResponse()` gives it. */
export interface WithResponse<T> {
  /** The call's result, as awaiting the promise gives it. */
  data: T;
  /** The raw `Response` (its body already read, except for streams; `asResponse()` hands it over unread). */
  response: Response;
  /** The `x-request-id` of the answer. */
  requestId: string | null;
  /** The `X-Execution-Id` of the answer, on execution answers. */
  executionId: string | null;
  /** The key's rate-limit window as the answer states it (`x-ratelimit-*`); each null when absent. */
  rateLimit: RateLimitInfo;
}

/** The `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` headers of an answer. */
export interface RateLimitInfo {
  /** Requests allowed in the current window for this key. */
  limit: number | null;
  /** Requests left in the current window. */
  remaining: number | null;
  /** Seconds until the window resets. */
  reset: number | null;
}

/** What the transport hands an `APIPromise`: the parsed data and the raw answer. */
export interface ParsedResponse<T> {
  data: T;
  response: Response;
  /** The body as read, so that a late `asResponse()` can still hand over an unread copy. */
  text?: string | undefined;
  /** `asResponse()` was asked before the answer came: the body is left unread and there is no `data`. */
  unread?: boolean | undefined;
}
