import { readErrorBody } from './errorBody.js';

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
}

/** Where a missing connection or credential is made (424 errors). */
export interface ConnectInfo {
  provider: string;
  method: 'oauth' | 'api_key' | 'wallet';
  /** A method and path, for example `POST /v1/connections/crm/link`. */
  link: string;
}

/** The `error` object of the service's error envelope. */
export interface ErrorBody {
  /** The error code, equal to the answer's `X-Error-Code`. */
  code: string;
  /** A human-readable message. */
  message: string;
  /** Names of absent fields (`invalid_params`). */
  missing?: string[];
  /** The contract the request broke. */
  contract?: string;
  /** What to do next. */
  hint?: string;
  /** The execution this error belongs to. */
  execution_id?: string;
  /** Where a missing connection or credential is made (424 errors). */
  connect?: ConnectInfo;
  /** Further fields the service may add. */
  [field: string]: unknown;
}

/**
 * The service answered with an error status. Branch on the subclass (`instanceof InvalidParamsError`, or the
 * status class `instanceof UnprocessableEntityError`) or on `.code`: both come from `X-Error-Code`, whatever the
 * wire the body came on.
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

/** 400. */
export class BadRequestError extends OzAPIError {
  override name = 'BadRequestError';
}
/** 401. */
export class AuthenticationError extends OzAPIError {
  override name = 'AuthenticationError';
}
/** 403. */
export class PermissionDeniedError extends OzAPIError {
  override name = 'PermissionDeniedError';
}
/** 404. */
export class NotFoundError extends OzAPIError {
  override name = 'NotFoundError';
}
/** 408. */
export class RequestTimeoutError extends OzAPIError {
  override name = 'RequestTimeoutError';
}
/** 409: never retried. */
export class ConflictError extends OzAPIError {
  override name = 'ConflictError';
}
/** 422. */
export class UnprocessableEntityError extends OzAPIError {
  override name = 'UnprocessableEntityError';
}
/** 424: never retried; `connect` says where the missing connection is made. */
export class FailedDependencyError extends OzAPIError {
  override name = 'FailedDependencyError';
}
/** 429. */
export class RateLimitError extends OzAPIError {
  override name = 'RateLimitError';
}
/** 500 and above. */
export class InternalServerError extends OzAPIError {
  override name = 'InternalServerError';
}

/** 400 `invalid_json`: the body is not valid JSON or YAML. */
export class InvalidJsonError extends BadRequestError {
  override name = 'InvalidJsonError';
  declare readonly code: 'invalid_json';
}
/** 400 `invalid_format`: an explicit format is not json, yaml, markdown or text (always answered as JSON). */
export class InvalidFormatError extends BadRequestError {
  override name = 'InvalidFormatError';
  declare readonly code: 'invalid_format';
}
/** 401 `unauthorized`: the key is missing, invalid, expired, revoked, fenced off, or not accepted on this plane. */
export class UnauthorizedError extends AuthenticationError {
  override name = 'UnauthorizedError';
  declare readonly code: 'unauthorized';
}
/** 404 `company_not_found`: no such company for this account, or no such building. */
export class CompanyNotFoundError extends NotFoundError {
  override name = 'CompanyNotFoundError';
  declare readonly code: 'company_not_found';
}
/** 404 `not_found`: no route for this method on this path (or no such record). */
export class RouteNotFoundError extends NotFoundError {
  override name = 'RouteNotFoundError';
  declare readonly code: 'not_found';
}
/** 408 `request_timeout`. */
export class RequestTimedOutError extends RequestTimeoutError {
  override name = 'RequestTimedOutError';
  declare readonly code: 'request_timeout';
}
/** 409 `approval_required`: a semantic answer, never retried. */
export class ApprovalRequiredError extends ConflictError {
  override name = 'ApprovalRequiredError';
  declare readonly code: 'approval_required';
}
/**
 * 409 `duplicate_execution_id`: the `x-trace-id` (idempotency key) was already used. Thrown only when the first
 * attempt of a call answers it; on a retry the SDK reads the first run's result instead.
 */
export class DuplicateExecutionIdError extends ConflictError {
  override name = 'DuplicateExecutionIdError';
  declare readonly code: 'duplicate_execution_id';
}
/** 422 `invalid_params`: a field failed validation; `missing` lists absent fields. Nothing was written. */
export class InvalidParamsError extends UnprocessableEntityError {
  override name = 'InvalidParamsError';
  declare readonly code: 'invalid_params';
}
/** 424 `connection_required`: a required account connection is missing; see `connect`. */
export class ConnectionRequiredError extends FailedDependencyError {
  override name = 'ConnectionRequiredError';
  declare readonly code: 'connection_required';
}
/** 424 `credential_required`: a required credential is missing; see `connect`. */
export class CredentialRequiredError extends FailedDependencyError {
  override name = 'CredentialRequiredError';
  declare readonly code: 'credential_required';
}
/** 429 `rate_limited`: over the key's rate limit (retried after `Retry-After`). */
export class RateLimitedError extends RateLimitError {
  override name = 'RateLimitedError';
  declare readonly code: 'rate_limited';
}
/** 500 `internal_error`. */
export class InternalError extends InternalServerError {
  override name = 'InternalError';
  declare readonly code: 'internal_error';
}
/** 502 `upstream_error`: the company service is unavailable. */
export class UpstreamError extends InternalServerError {
  override name = 'UpstreamError';
  declare readonly code: 'upstream_error';
}
/** 503 `not_enabled`: the company service is not deployed on this tier. */
export class NotEnabledError extends InternalServerError {
  override name = 'NotEnabledError';
  declare readonly code: 'not_enabled';
}
/** 504 `timeout`: the service gave up waiting on the run. */
export class GatewayTimeoutError extends InternalServerError {
  override name = 'GatewayTimeoutError';
  declare readonly code: 'timeout';
}

/**
 * 401 for a legacy key (`sk-mdl-` opens only the models plane, `sk-prx-` only the connector proxy) used on
 * another plane. The SDK decides this **after** the request: the key is sent as given, and only when the
 * service answers 401 does the SDK raise this error (instead of a bare {@link UnauthorizedError}), with the real
 * status, headers and `requestId`. The message says which plane the key opens; it never contains the key.
 */
export class LegacyKeyError extends UnauthorizedError {
  override name = 'LegacyKeyError';
  /** The plane the legacy key opens. */
  readonly keyPlane: 'models' | 'proxy' | 'unknown';
  /** The plane of the operation that was called. */
  readonly plane: string;

  constructor(source: OzAPIError, keyPlane: 'models' | 'proxy' | 'unknown', plane: string) {
    const opens = keyPlane === 'unknown' ? 'no plane but its own' : `only the ${keyPlane} plane`;
    super(source.status, source.headers, source.error, source.message);
    this.keyPlane = keyPlane;
    this.plane = plane;
    this.message =
      `${source.status} unauthorized: a legacy sk- key opens ${opens}; the ${plane} plane takes only a platform ` +
      `key (ozk_...). Create one in the dashboard's keys tab. (${source.error?.message ?? 'no message'})`;
  }
}

/** The call ended without an answer: the connection failed or was cut. Retried by default. */
export class OzConnectionError extends OzError {
  override name = 'OzConnectionError';
}

/**
 * An attempt (or the wait for a lost answer's execution) ran past its timeout. Retried by default. Also raised
 * for undici's own `headersTimeout`/`bodyTimeout` (300 s) of Node's built-in `fetch`.
 */
export class OzTimeoutError extends OzConnectionError {
  override name = 'OzTimeoutError';
}

/** The caller's `signal` aborted the call (at once, also during a retry wait). Never retried. */
export class OzAbortError extends OzError {
  override name = 'OzAbortError';
}

/** The execution behind a lost answer was cancelled before it finished. */
export class OzExecutionCancelledError extends OzError {
  override name = 'OzExecutionCancelledError';
  /** The cancelled execution. */
  readonly executionId: string;

  constructor(executionId: string) {
    super(`Execution ${executionId} was cancelled before it finished.`);
    this.executionId = executionId;
  }
}

type APIErrorClass = new (status: number, headers: Headers, error: ErrorBody | undefined, message?: string) => OzAPIError;

const BY_CODE: Readonly<Record<string, readonly [APIErrorClass, number]>> = {
  invalid_json: [InvalidJsonError, 400],
  invalid_format: [InvalidFormatError, 400],
  unauthorized: [UnauthorizedError, 401],
  company_not_found: [CompanyNotFoundError, 404],
  not_found: [RouteNotFoundError, 404],
  request_timeout: [RequestTimedOutError, 408],
  approval_required: [ApprovalRequiredError, 409],
  duplicate_execution_id: [DuplicateExecutionIdError, 409],
  invalid_params: [InvalidParamsError, 422],
  connection_required: [ConnectionRequiredError, 424],
  credential_required: [CredentialRequiredError, 424],
  rate_limited: [RateLimitedError, 429],
  internal_error: [InternalError, 500],
  upstream_error: [UpstreamError, 502],
  not_enabled: [NotEnabledError, 503],
  timeout: [GatewayTimeoutError, 504],
};

const BY_STATUS: Readonly<Record<number, APIErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  408: RequestTimeoutError,
  409: ConflictError,
  422: UnprocessableEntityError,
  424: FailedDependencyError,
  429: RateLimitError,
};

/** The status a known error code is answered with (for an error read from an execution record), else 500. */
export function statusForCode(code: string): number {
  return Object.hasOwn(BY_CODE, code) ? BY_CODE[code]![1] : 500;
}

/**
 * The typed error of an error answer: the class of its code (`X-Error-Code` first, else `error.code`), else the
 * class of its status (any 5xx is an {@link InternalServerError}), else {@link OzAPIError}.
 */
export function apiErrorFor(status: number, headers: Headers, error: ErrorBody | undefined, message?: string): OzAPIError {
  const code = headers.get('x-error-code') || error?.code;
  const byCode = code !== undefined && Object.hasOwn(BY_CODE, code) ? BY_CODE[code]![0] : undefined;
  const Class = byCode ?? BY_STATUS[status] ?? (status >= 500 ? InternalServerError : OzAPIError);
  return new Class(status, headers, error, message);
}

/**
 * The typed error of a whole error `Response` on any wire: the body is read as the answer's `Content-Type`
 * says (json and yaml envelopes; markdown `# Error: <code>` with its `- missing:`, `- contract:`, `- hint:`
 * lines and `execution_id` footer; text `<code>: <message>` with its `missing:` line).
 */
export async function errorFromResponse(response: Response): Promise<OzAPIError> {
  const text = await response.text().catch(() => '');
  return errorFromText(response.status, response.headers, text, response.statusText);
}

/** {@link errorFromResponse} for a body already read. */
export async function errorFromText(status: number, headers: Headers, text: string, statusText = ''): Promise<OzAPIError> {
  const error = await readErrorBody(text, headers.get('content-type'));
  return apiErrorFor(status, headers, error, text.trim().slice(0, 500) || statusText || undefined);
}
