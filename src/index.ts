export { Oz, type ClientOptions } from './client.js';
export type { OzRawClient } from './raw/rawClient.js';
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
export { Page, PagePromise, type NextPageParams, type PageBody } from './core/pagination.js';
export type { AuthHeader, FetchLike, FetchOptions, Format, QueryParams, RequestOptions } from './core/requestOptions.js';
export { DEFAULT_IDLE_TIMEOUT_MS, Stream, type ServerSentEvent, type StreamOptions, type StreamResult } from './core/stream.js';
export { OzStreamIdleTimeoutError, OzStreamInterruptedError, OzStreamProtocolError, type StreamInterruption } from './core/streamErrors.js';
export type { StreamMode } from './core/streamProtocol.js';
export {
  DEFAULT_MAX_POLL_INTERVAL_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WAIT_TIMEOUT_MS,
  type ExecutionRef,
  type ExecutionResultAnswer,
  type PointerWait,
  type PollRequestOptions,
  type WaitOptions,
  type Waitable,
} from './core/executionPoller.js';
export { OzWaitTimeoutError } from './core/waitTimeoutError.js';
export { API_VERSION, SDK_VERSION } from './core/version.js';
export type { DefaultRequestOptions, JsonRequestOptions, ListRequestOptions, ParsedWireOptions, StreamRequestOptions, WireResult } from './core/wire.js';
export * from './generated/index.js';
// The hand-written `executions` resource (the generated one plus `wait()`) shadows the generated class.
export { Executions } from './resources/executions.js';
export { McpClient, MCP_PROTOCOL_VERSION, type McpAnswer, type McpCallOptions, type McpFormat } from './mcp/mcpClient.js';
export { McpInvalidParamsError, McpMethodNotFoundError, McpToolError, McpToolFencedError, OzMcpError } from './mcp/mcpErrors.js';
export { signIn, SIGN_IN_CODE_VALIDITY_MS, type SignInOptions, type SignInResult } from './signin/signIn.js';
export { SignInError, type SignInFailure } from './signin/signInError.js';
