
/** The base class of every error the SDK throws. */
export class OzError extends Error {
  override name = 'OzError';
}

/**
 * The call cannot be sent as given (a missing path parameter, a YAML body where the operation takes none, no
 * base URL, a browser without `dangerouslyAllowBrowser`). Nothing was sent.
 */
export class OzUsageError extends OzError {
  override name = 'OzUsageError';
  /** The SDK's own code of this error, for a `switch (error.code)` over a call's `result()`. */
  readonly code = 'usage_error' as const;
}

/** The call ended without an answer: the connection failed or was cut. Retried by default. */
export class OzConnectionError extends OzError {
  override name = 'OzConnectionError';
  /** The SDK's own code: `connection_error`, or `timeout_error` for an {@link OzTimeoutError}. */
  readonly code: 'connection_error' | 'timeout_error' = 'connection_error';
}

/**
 * An attempt (or the wait for a lost answer's execution) ran past its timeout. Retried by default. Also raised
 * for undici's own `headersTimeout`/`bodyTimeout` (300 s) of Node's built-in `fetch`.
 */
export class OzTimeoutError extends OzConnectionError {
  override name = 'OzTimeoutError';
  override readonly code = 'timeout_error' as const;
}

/** The caller's `signal` aborted the call (at once, also during a retry wait). Never retried. */
export class OzAbortError extends OzError {
  override name = 'OzAbortError';
  /** The SDK's own code of this error, for a `switch (error.code)` over a call's `result()`. */
  readonly code = 'abort_error' as const;
  /**
   * The run a stream reported on (its `X-Execution-Id`), when an aborted stream knew it: the run goes on, read its
   * outcome with `client.executions.wait(executionId)`.
   */
  executionId?: string;
}

/** The typed abort error of a signal, carrying its reason. */
export function abortError(signal: AbortSignal | undefined): OzAbortError {
  return new OzAbortError('The call was aborted.', { cause: signal?.reason });
}
