export { Oz, type ClientOptions } from './client.js';
export { APIPromise, type RateLimitInfo, type WithResponse } from './core/apiPromise.js';
export {
  apiErrorFor,
  errorFromResponse,
  OzError,
  OzUsageError,
  OzAPIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  RequestTimeoutError,
  ConflictError,
  UnprocessableEntityError,
  FailedDependencyError,
  RateLimitError,
  InternalServerError,
  InvalidJsonError,
  InvalidFormatError,
  UnauthorizedError,
  LegacyKeyError,
  CompanyNotFoundError,
  RouteNotFoundError,
  RequestTimedOutError,
  ApprovalRequiredError,
  DuplicateExecutionIdError,
  InvalidParamsError,
  ConnectionRequiredError,
  CredentialRequiredError,
  RateLimitedError,
  InternalError,
  UpstreamError,
  NotEnabledError,
  GatewayTimeoutError,
  OzConnectionError,
  OzTimeoutError,
  OzAbortError,
  OzExecutionCancelledError,
  type ConnectInfo,
  type ErrorBody,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Operation, Plane, RequestInput } from './core/operation.js';
export { PagePromise, type Page } from './core/pagination.js';
export type { AuthHeader, FetchLike, Format, RequestOptions } from './core/requestOptions.js';
export { Stream, type ServerSentEvent } from './core/stream.js';
export { API_VERSION, SDK_VERSION } from './core/version.js';
export type { JsonRequestOptions, ListRequestOptions, StreamRequestOptions, WireResult } from './core/wire.js';
export * from './generated/index.js';
export { McpClient, MCP_PROTOCOL_VERSION, type McpAnswer, type McpCallOptions, type McpFormat } from './mcp/mcpClient.js';
export { McpInvalidParamsError, McpMethodNotFoundError, McpToolError, McpToolFencedError, OzMcpError } from './mcp/mcpErrors.js';
export { signIn, SIGN_IN_CODE_VALIDITY_MS, type SignInOptions, type SignInResult } from './signin/signIn.js';
export { SignInError, type SignInFailure } from './signin/signInError.js';
