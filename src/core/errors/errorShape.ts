// The service's error envelope as the SDK reads it: the error classes (apiErrors.ts) and the readers of every wire
// (attempt/errorBody.ts, attempt/errorLines.ts) take it from here; errors.ts, at the bottom of the core, imports nothing.

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
