export { Oz, type ClientOptions } from './client.js';
export { APIPromise, type WithResponse } from './core/apiPromise.js';
export { OzError, OzAPIError, OzConnectionError, type ErrorBody } from './core/errors.js';
export type { Operation, Plane, RequestInput } from './core/operation.js';
export { PagePromise, type Page } from './core/pagination.js';
export type { FetchLike, Format, RequestOptions } from './core/requestOptions.js';
export { Stream, type ServerSentEvent } from './core/stream.js';
export type { JsonRequestOptions, ListRequestOptions, StreamRequestOptions, WireResult } from './core/wire.js';
export * from './generated/index.js';
