/**
 * `oz-sdk`: the client of the Oz API. This list is the package's public surface, written out name by name (no
 * `export *`); `test/architecture/publicSurface.test.ts` holds it against `test/architecture/publicSurface.snapshot.json`, so a change is
 * always deliberate.
 *
 * @packageDocumentation
 */
import type * as types from './generated/types.js';
import { registerErrorCodes } from './core/errors/apiErrors.js';
export { errorFromResponse } from './core/attempt/errorBody.js';
import { ERROR_CODES } from './generated/errors.js';

// `apiErrorFor` and `errorFromResponse` give the typed error of every code of openapi.json, before any client is made.
registerErrorCodes(ERROR_CODES);

export { Oz, type ClientOptions } from './client.js';
export type { OzRawClient } from './raw/rawClient.js';
export { APIPromise, type RateLimitInfo, type WithResponse } from './core/result/apiPromise.js';
export { OzError, OzUsageError, OzConnectionError, OzTimeoutError, OzAbortError } from './core/errors/errors.js';
export type { ConnectInfo, ErrorBody } from './core/errors/errorShape.js';
export {
  apiErrorFor,
  OzAPIError,
  Http400Error,
  Http401Error,
  Http403Error,
  Http404Error,
  Http405Error,
  Http408Error,
  Http409Error,
  Http413Error,
  Http422Error,
  Http424Error,
  Http429Error,
  Http5xxError,
  UnauthorizedError,
} from './core/errors/apiErrors.js';
export { LegacyKeyError } from './core/errors/legacyKeyError.js';
export type { ApiKeySource } from './core/shared/credentials.js';
export type { Logger, LogLevel } from './core/shared/logger.js';
export type { Middleware, MiddlewareContext, MiddlewareNext } from './core/shared/middleware.js';
export { OzMiddlewareError } from './core/errors/middlewareError.js';
export type { RetryInfo, RetryOptions } from './core/shared/retryOptions.js';
export type { Plane } from './core/shared/operation.js';
export { Page, PagePromise, type NextPageParams, type PageBody } from './core/result/pagination.js';
export type { AuthHeader, FetchLike, FetchOptions, Format, QueryParams, RequestOptions } from './core/shared/requestOptions.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_EVENT_BYTES,
  Stream,
  type ServerSentEvent,
  type StreamOptions,
  type StreamResult,
} from './core/streams/stream.js';
export {
  OzStreamEventTooLargeError,
  OzStreamIdleTimeoutError,
  OzStreamInterruptedError,
  OzStreamProtocolError,
  OzStreamTimeoutError,
  type StreamInterruption,
} from './core/streams/streamErrors.js';
export { MAX_REDIRECTS, OzRedirectError } from './core/errors/redirectError.js';
export { OzResponseTooLargeError } from './core/errors/responseTooLargeError.js';
export type { StreamMode } from './core/streams/streamProtocol.js';
export {
  DEFAULT_MAX_POLL_INTERVAL_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WAIT_TIMEOUT_MS,
  type ExecutionRef,
  type PointerWait,
  type PollRequestOptions,
  type WaitOptions,
  type Waitable,
} from './core/executions/executionPoller.js';
export { OzWaitTimeoutError } from './core/executions/waitTimeoutError.js';
export type { CallResult, OzClientError } from './core/result/callResult.js';
export { OzResponseValidationError } from './core/errors/responseValidationError.js';
export type { ValidateMode } from './core/shared/responseValidation.js';
// Each operation's error codes and the error type of its `result()`: generated from openapi.json.
export {
  OPERATION_ERROR_CODES,
  RUN_ERROR_CODES,
  type ErrorOfCode,
  type OperationError,
  type OperationErrorCode,
  type WaitError,
} from './generated/operationErrors.js';
export { API_VERSION, SDK_VERSION } from './core/shared/version.js';
export type {
  DefaultRequestOptions,
  JsonRequestOptions,
  ListRequestOptions,
  ParsedWireOptions,
  StreamRequestOptions,
  WireResult,
} from './core/result/resultTypes.js';
// The code classes, one per code of openapi.json's ErrorCode, and their table: generated.
export {
  ERROR_CODES,
  type ErrorCodeName,
  InvalidJsonError,
  InvalidFormatError,
  UnsupportedProtocolVersionError,
  ForbiddenHostError,
  RouteNotFoundError,
  CompanyNotFoundError,
  ToolNotFoundError,
  AgentNotFoundError,
  WorkflowNotFoundError,
  ScheduleNotFoundError,
  ExecutionNotFoundError,
  ItemNotFoundError,
  ModelNotFoundError,
  MethodNotAllowedError,
  RequestTimeoutError,
  ApprovalRequiredError,
  DuplicateExecutionIdError,
  AlreadyExistsError,
  ExecutionCancelledError,
  IdempotencyConflictError,
  ResetError,
  PayloadTooLargeError,
  InvalidParamsError,
  ConnectionRequiredError,
  CredentialRequiredError,
  RateLimitedError,
  InternalError,
  UpstreamError,
  NotEnabledError,
  GatewayTimeoutError,
} from './generated/errors.js';
// Resources: reached as properties of a client (`client.tools`), exported as types only.
export type {
  Agents,
  Chat,
  ChatCompletions,
  Companies,
  CompaniesItems,
  Connections,
  Discovery,
  Embeddings,
  Mcp,
  Meta,
  Models,
  Proxy,
  Schedules,
  Tools,
  Traces,
  Workflows,
} from './generated/index.js';
// The hand-written `executions` resource: the generated one plus `wait()`.
export type { Executions } from './resources/executions.js';
// Every schema of openapi.json as `types.<Name>`; the ones most calls take or answer also by name.
export type { types };
export type {
  Agent,
  AsyncPointer,
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  Embedding,
  EmbeddingResponse,
  ExecuteStreamEvent,
  Execution,
  ExecutionResult,
  Item,
  ItemCreateRequest,
  ItemKind,
  Model,
  Schedule,
  Tool,
  ToolExecuteRequest,
  Trace,
  WhoAmI,
  Workflow,
  WorkflowDefinition,
  WorkflowExecuteRequest,
} from './generated/types.js';
export { McpClient, MCP_PROTOCOL_VERSION, type McpAnswer, type McpCallOptions, type McpFormat } from './mcp/mcpClient.js';
export { McpInvalidParamsError, McpMethodNotFoundError, McpToolError, McpToolFencedError, OzMcpError } from './mcp/mcpErrors.js';
export { signIn, SIGN_IN_CODE_VALIDITY_MS, type SignInOptions, type SignInResult } from './signin/signIn.js';
export { SignInError, type SignInFailure } from './signin/signInError.js';
