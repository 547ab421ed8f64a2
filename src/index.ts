export { Oz, type ClientOptions } from './client.js';
export { APIPromise, type RateLimitInfo, type WithResponse } from './core/apiPromise.js';
export {
  apiErrorFor,
  errorFromResponse,
  OzError,
  OzUsageError,
  OzAPIError,
  Http400Error,
  Http401Error,
  Http403Error,
  Http404Error,
  Http405Error,
  Http408Error,
  Http409Error,
  Http422Error,
  Http424Error,
  Http429Error,
  Http5xxError,
  LegacyKeyError,
  OzConnectionError,
  OzTimeoutError,
  OzAbortError,
  type ConnectInfo,
  type ErrorBody,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Operation, Plane, RequestInput } from './core/operation.js';
export { Page, PagePromise, type NextPageParams, type PageBody } from './core/pagination.js';
export type { AuthHeader, FetchLike, Format, RequestOptions } from './core/requestOptions.js';
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
export type { JsonRequestOptions, ListRequestOptions, StreamRequestOptions, WireResult } from './core/wire.js';
// The code classes (`InvalidParamsError`, ...) and their table `ERROR_CODES` come from here, generated.
export * from './generated/index.js';
// The hand-written `executions` resource (the generated one plus `wait()`) shadows the generated class.
export { Executions } from './resources/executions.js';
export { McpClient, MCP_PROTOCOL_VERSION, type McpAnswer, type McpCallOptions, type McpFormat } from './mcp/mcpClient.js';
export { McpInvalidParamsError, McpMethodNotFoundError, McpToolError, McpToolFencedError, OzMcpError } from './mcp/mcpErrors.js';
export { signIn, SIGN_IN_CODE_VALIDITY_MS, type SignInOptions, type SignInResult } from './signin/signIn.js';
export { SignInError, type SignInFailure } from './signin/signInError.js';
