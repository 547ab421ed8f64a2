/** The base class of every error the SDK throws. */
export class OzError extends Error {
  override name = 'OzError';
}

/** The `error` object of the service's error envelope. */
export interface ErrorBody {
  code: string;
  message: string;
  missing?: string[];
  contract?: string;
  hint?: string;
  execution_id?: string;
  connect?: { provider: string; method: 'oauth' | 'api_key' | 'wallet'; link: string };
  [field: string]: unknown;
}

/** The service answered with an error status. */
export class OzAPIError extends OzError {
  override name = 'OzAPIError';
  /** The HTTP status. */
  readonly status: number;
  /** The error code: `X-Error-Code`, else `error.code` of the body. */
  readonly code: string;
  /** The `x-request-id` of the answer. */
  readonly requestId: string | undefined;
  /** The `X-Execution-Id` of the answer, when the request created an execution. */
  readonly executionId: string | undefined;
  /** The answer's headers. */
  readonly headers: Headers;
  /** The parsed error object, when the wire carried one. */
  readonly error: ErrorBody | undefined;

  constructor(status: number, code: string, message: string, headers: Headers, error?: ErrorBody) {
    super(`${status} ${code}: ${message}`);
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.error = error;
    this.requestId = headers.get('x-request-id') ?? undefined;
    this.executionId = headers.get('x-execution-id') ?? error?.execution_id ?? undefined;
  }
}

/** No answer came: the connection failed. */
export class OzConnectionError extends OzError {
  override name = 'OzConnectionError';
}
