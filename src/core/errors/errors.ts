// Every class of this file and of its subclasses carries this key (a static, inherited): it marks an error class
// of oz-sdk in whichever of the package's two builds (ESM and CommonJS) made it. `Symbol.for` is one symbol
// across builds and realms.
const ERROR_CLASS = Symbol.for('oz-sdk.error-class');

/** Whether `instance` was made by `cls` or a subclass, in this build or the other one (see {@link OzError}). */
function madeBy(cls: { readonly name: string }, instance: object): boolean {
  for (let proto: unknown = Object.getPrototypeOf(instance); proto !== null && typeof proto === 'object'; proto = Object.getPrototypeOf(proto)) {
    const made = (proto as { constructor?: { readonly name?: unknown; readonly [ERROR_CLASS]?: unknown } }).constructor;
    if (made?.[ERROR_CLASS] === true && made.name === cls.name) return true;
  }
  return false;
}

/**
 * Whether `instance` is an error of this build. (Outside the class body: a class that names itself in its body is
 * renamed by esbuild, `OzError.name` would read `_OzError`.)
 */
function ofThisBuild(instance: object): boolean {
  return Object.prototype.isPrototypeOf.call(OzError.prototype, instance);
}

/**
 * The base class of every error the SDK throws. `instanceof` holds across the package's two builds: an error
 * thrown by a client made with `require('oz-sdk')` is an instance of the classes an ES module imports from
 * `'oz-sdk'`, and the other way round (every class below this one: a class of the other build is told by its
 * name among the classes that carry oz-sdk's mark).
 */
export class OzError extends Error {
  static readonly [ERROR_CLASS] = true;

  static override [Symbol.hasInstance](instance: unknown): boolean {
    if (typeof instance !== 'object' || instance === null) return false;
    // The ordinary check, without the global `Function` (a runtime or a test may replace it).
    if (Object.prototype.isPrototypeOf.call(this.prototype, instance)) return true;
    // Names are compared for the other build's errors only: the ordinary check is the whole answer for this build's,
    // where a minifier may have left two classes with one name.
    return !ofThisBuild(instance) && madeBy(this, instance);
  }

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
