import { OzError } from './errors.js';
import type { ConnectInfo, ErrorBody } from './errorShape.js';

// The errors of the service's answers, apart from the SDK's own (errors.ts).

/**
 * The service answered with an error status. Branch on the code class (`instanceof InvalidParamsError`, generated
 * from openapi.json's `ErrorCode`), on the status class (`instanceof Http422Error`), or on `.code`: the class and
 * the code both come from `X-Error-Code`, whatever the wire the body came on.
 */
export class OzAPIError extends OzError {
  override name = 'OzAPIError';
  /** The HTTP status. */
  readonly status: number;
  /** The error code: `X-Error-Code`, else `error.code` of the body, else `http_<status>`. */
  readonly code: string;
  /** The `x-request-id` of the answer. */
  readonly requestId: string | undefined;
  /** The `X-Execution-Id` of the answer (or the body's `execution_id`), when the request created an execution. */
  readonly executionId: string | undefined;
  /** The answer's headers. */
  readonly headers: Headers;
  /** Names of the absent fields (`invalid_params`), on every wire. */
  readonly missing: string[] | undefined;
  /** The contract the request broke, where the wire carries it (json, yaml, markdown). */
  readonly contract: string | undefined;
  /** What to do next, where the wire carries it (json, yaml, markdown). */
  readonly hint: string | undefined;
  /** Where the missing connection or credential is made (424 `connection_required`, `credential_required`). */
  readonly connect: ConnectInfo | undefined;
  /** The error object as the body carried it (rebuilt from the lines on the markdown and text wires). */
  readonly error: ErrorBody | undefined;

  /**
   * @param message - Used when the body carried no message (for example an empty body).
   */
  constructor(status: number, headers: Headers, error: ErrorBody | undefined, message?: string) {
    const code = headers.get('x-error-code') || error?.code || `http_${status}`;
    super(`${status} ${code}: ${error?.message || message || 'the service answered an error without a message'}`);
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.error = error;
    this.requestId = headers.get('x-request-id') ?? undefined;
    this.executionId = headers.get('x-execution-id') ?? error?.execution_id ?? undefined;
    this.missing = error?.missing;
    this.contract = error?.contract;
    this.hint = error?.hint;
    this.connect = error?.connect;
  }
}

// Status classes are named `Http<status>Error` (`Http409Error`), 5xx answers share `Http5xxError`; code classes
// are named after their code (`rate_limited` is `RateLimitedError`) and generated from openapi.json's `ErrorCode`
// into src/generated/errors.ts, each under its status class; errors the SDK raises itself start with `Oz`.

/** Any 400 answer; its codes: `InvalidJsonError`, `InvalidFormatError`. */
export class Http400Error extends OzAPIError {
  override name = 'Http400Error';
}
/** Any 401 answer; its code: `UnauthorizedError`. */
export class Http401Error extends OzAPIError {
  override name = 'Http401Error';
}
/** Any 403 answer. */
export class Http403Error extends OzAPIError {
  override name = 'Http403Error';
}
/** Any 404 answer: `RouteNotFoundError` (no route), or a missing record (`ToolNotFoundError`, ...). */
export class Http404Error extends OzAPIError {
  override name = 'Http404Error';
}
/** Any 405 answer; its code: `MethodNotAllowedError`. */
export class Http405Error extends OzAPIError {
  override name = 'Http405Error';
}
/** Any 408 answer (retried); its code: `RequestTimeoutError`. */
export class Http408Error extends OzAPIError {
  override name = 'Http408Error';
}
/** Any 409 answer: never retried. */
export class Http409Error extends OzAPIError {
  override name = 'Http409Error';
}
/** Any 413 answer; its code: `PayloadTooLargeError`. The body was over the server's bound; never retried. */
export class Http413Error extends OzAPIError {
  override name = 'Http413Error';
}
/** Any 422 answer; its code: `InvalidParamsError`. Nothing was written. */
export class Http422Error extends OzAPIError {
  override name = 'Http422Error';
}
/** Any 424 answer: never retried; `connect` says where the missing connection is made. */
export class Http424Error extends OzAPIError {
  override name = 'Http424Error';
}
/** Any 429 answer (retried after `Retry-After`); its code: `RateLimitedError`. */
export class Http429Error extends OzAPIError {
  override name = 'Http429Error';
}
/** Any answer of status 500 and above (retried). */
export class Http5xxError extends OzAPIError {
  override name = 'Http5xxError';
}

/**
 * 401 `unauthorized`: the key is missing, invalid, expired, revoked, fenced off, or not accepted on this plane.
 * The one code class written by hand (the generated table uses it): the transport raises its subclass
 * `LegacyKeyError` (errors/legacyKeyError.ts), and src/core imports nothing generated.
 */
export class UnauthorizedError extends Http401Error {
  override name = 'UnauthorizedError';
  declare readonly code: 'unauthorized';
}

/** The constructor every API error class has. */
export type APIErrorClass = new (status: number, headers: Headers, error: ErrorBody | undefined, message?: string) => OzAPIError;

/** One error code's class and the status the service answers it with. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly class: APIErrorClass;
}

// The code-to-class table, filled by the layer above (src/core imports nothing generated): the `Oz` client and the
// package entry add every code of openapi.json; a standalone function adds its operation's codes on its first call.
const BY_CODE: Record<string, ErrorCodeEntry> = {};

/** Adds error codes to the table (a code added again keeps its one class: they come from openapi.json). */
export function registerErrorCodes(table: Readonly<Record<string, ErrorCodeEntry>>): void {
  Object.assign(BY_CODE, table);
}

const BY_STATUS: Readonly<Record<number, APIErrorClass>> = {
  400: Http400Error,
  401: Http401Error,
  403: Http403Error,
  404: Http404Error,
  405: Http405Error,
  408: Http408Error,
  409: Http409Error,
  413: Http413Error,
  422: Http422Error,
  424: Http424Error,
  429: Http429Error,
};

/** The status a known error code is answered with (for an error read from an execution record), else 500. */
export function statusForCode(code: string): number {
  return Object.hasOwn(BY_CODE, code) ? BY_CODE[code]!.status : 500;
}

/**
 * The typed error of an error answer: the class of its code (`X-Error-Code` first, else `error.code`), else the
 * class of its status (any 5xx is an {@link Http5xxError}), else {@link OzAPIError}.
 */
export function apiErrorFor(status: number, headers: Headers, error: ErrorBody | undefined, message?: string): OzAPIError {
  const code = headers.get('x-error-code') || error?.code;
  const byCode = code !== undefined && Object.hasOwn(BY_CODE, code) ? BY_CODE[code]!.class : undefined;
  const Class = byCode ?? BY_STATUS[status] ?? (status >= 500 ? Http5xxError : OzAPIError);
  return new Class(status, headers, error, message);
}
