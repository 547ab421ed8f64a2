import type { OzError } from '../errors/errors.js';
import type { ParsedResponse, WithResponse } from './answerTypes.js';
import type { CallResult } from './callResult.js';
import { handOver } from '../shared/handedOver.js';
import { parsedData, resultOf, responseOf, withResponseOf } from './answerReaders.js';

export type { ParsedResponse, RateLimitInfo, WithResponse } from './answerTypes.js';

const ignore = (): undefined => undefined;

/** Starts a call, given the promise that will carry it (see `shared/handedOver.ts`). */
export type CallStarter<T> = (promise: object) => Promise<ParsedResponse<T>>;

/**
 * A `Promise` of a call's result that can also give the raw `Response` and its metadata
 * (`withResponse()`, `asResponse()`), like openai-node's `APIPromise`, or the error as a value (`result()`).
 * `E` is what the call can fail with: for a generated method, the classes of exactly its operation's error codes
 * (openapi.json's `x-oz-error-codes`) and the SDK's own errors.
 */
export class APIPromise<T, E = OzError> extends Promise<T> {
  readonly #parsed: Promise<ParsedResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(parsed: Promise<ParsedResponse<T>> | CallStarter<T>) {
    // The base promise is never used: every reader goes through `then`, which reads `#parsed` lazily.
    super((resolve) => resolve(undefined as T));
    this.#parsed = typeof parsed === 'function' ? parsed(this) : parsed;
    // A call whose promise nobody reads must not raise an unhandled rejection; readers still see it.
    this.#parsed.catch(ignore);
  }

  // Derived promises (then/catch/finally) are plain Promises, not APIPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  #dataPromise(): Promise<T> {
    this.#data ??= this.#parsed.then(parsedData<T>);
    return this.#data;
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#dataPromise().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#dataPromise().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#dataPromise().finally(onfinally);
  }

  /** The data with the raw `Response`, `x-request-id`, `X-Execution-Id` and the rate-limit headers. */
  async withResponse(): Promise<WithResponse<T>> {
    const parsed = await this.#parsed;
    return withResponseOf(parsed);
  }

  /**
   * The raw `Response` with its body unread, for the caller to read (or pipe) at its own pace: called before the
   * answer came, the SDK leaves the body alone (the data is then not parsed: awaiting the call rejects with
   * `OzUsageError`); called later, it answers a copy of the body it read. The attempt's `timeout` covers the
   * wait for the headers; the caller's `signal` still cuts the body. An error status throws its typed error.
   */
  async asResponse(): Promise<Response> {
    handOver(this);
    const parsed = await this.#parsed;
    return responseOf(parsed);
  }

  /**
   * The call's outcome as a value, Go style: never rejects for an API, connection, timeout, abort, usage or
   * response-validation error; `{ data, response, error: undefined }` on success, else `{ data: undefined,
   * response, error }` (`response` undefined when no answer came). `switch (error.code)` over it is checked
   * exhaustively by the compiler.
   *
   * @example
   * const { data, error } = await client.tools.get('echo').result();
   * if (error) {
   *   switch (error.code) {
   *     case 'tool_not_found': ...
   *   }
   * }
   */
  async result(): Promise<CallResult<T, E>> {
    return await resultOf<T, E>(this.#parsed);
  }
}
