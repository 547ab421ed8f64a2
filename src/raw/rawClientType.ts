import type { Middleware } from '../core/shared/middleware.js';
import type { paths } from '../generated/openapi.js';

// The raw client's public type, written over the generated `paths` here rather than taken from openapi-fetch's
// declarations: a program that type-checks its dependencies (`skipLibCheck: false`) would otherwise check all of
// openapi-fetch's types too (three quarters of the package's type-check cost, measured by the bench).

/** The HTTP methods of openapi.json's operations, as the raw client's `request()` takes them. */
export type RawMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of openapi.json that have an operation for `M`. */
export type RawPath<M extends RawMethod> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];

/** The operation of openapi.json at path `P` and method `M`. */
type RawOperation<P extends keyof paths, M extends RawMethod> = NonNullable<paths[P][M]>;

/** How the raw client reads a 2xx answer's body (`json` by default). */
export type RawParseAs = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';

/** The keys of `T` that are not optional. */
// `{}` on purpose: only a key `{}` is assignable to, an optional one, drops out.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type RequiredKey<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** `params`: the operation's path, query and header parameters; required when it has a required one. */
type ParamsOption<Op> = Op extends { parameters: infer Params }
  ? [RequiredKey<Params>] extends [never]
    ? { params?: Params }
    : { params: Params }
  : { params?: never };

/** `body`: the operation's JSON request body; required when openapi.json requires it. */
type BodyOption<Op> = Op extends { requestBody: { content: { 'application/json': infer Body } } }
  ? { body: Body }
  : Op extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? { body?: Body }
    : { body?: never };

/** What every raw call may take besides its parameters and body. */
export interface RawCallOptions extends Omit<RequestInit, 'body' | 'headers' | 'method'> {
  /** How to read the answer's body: `json` (the default), `text` (the markdown, text and YAML wires), `stream` (events). */
  readonly parseAs?: RawParseAs;
  /** Headers of this call, over the client's own. */
  readonly headers?:
    ConstructorParameters<typeof Headers>[0] | Record<string, string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined>;
}

/** The second argument of a raw call of operation `Op`. */
export type RawInit<Op> = RawCallOptions & ParamsOption<Op> & BodyOption<Op>;

/** The init argument: optional when the operation needs no parameter and no body. */
type InitArgument<Op, Init> = [RequiredKey<ParamsOption<Op> & BodyOption<Op>>] extends [never] ? [init?: Init] : [init: Init];

/** The status codes of a 2xx answer. */
type SuccessStatus<Responses> = { [S in keyof Responses]: `${S & (string | number)}` extends `2${string}` ? S : never }[keyof Responses];

/** The JSON body of operation `Op`'s 2xx answers. */
type SuccessBody<Op> = Op extends { responses: infer Responses }
  ? Responses[SuccessStatus<Responses>] extends infer Answer
    ? Answer extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never
  : never;

/** What each `parseAs` gives as `data`. */
interface ParsedBody<Json> {
  json: Json;
  text: string;
  blob: Blob;
  arrayBuffer: ArrayBuffer;
  stream: Response['body'];
}

/**
 * A raw call's answer: `data` is the 2xx body read as `parseAs` says (undefined for an empty answer); a non-2xx
 * answer throws its typed `OzAPIError` instead, so `error` is always undefined.
 */
export interface RawAnswer<Data> {
  readonly data: Data | undefined;
  readonly error?: undefined;
  readonly response: Response;
}

/** The answer of operation `Op` called with `Init`. */
type RawAnswerOf<Op, Init> = RawAnswer<ParsedBody<SuccessBody<Op>>[Init extends { parseAs: infer As extends RawParseAs } ? As : 'json']>;

/** One method of the raw client, e.g. `GET`. */
export type RawMethodCall<M extends RawMethod> = <P extends RawPath<M>, Init extends RawInit<RawOperation<P, M>>>(
  path: P,
  ...init: InitArgument<RawOperation<P, M>, Init>
) => Promise<RawAnswerOf<RawOperation<P, M>, Init>>;

/** The context an openapi-fetch style middleware object is given. */
export interface RawMiddlewareContext {
  /** The request about to be sent (`onRequest`) or sent. */
  readonly request: Request;
  /** The path of openapi.json, with its braces. */
  readonly schemaPath: string;
  /** The parameters the call was given. */
  readonly params: { readonly query?: Record<string, unknown>; readonly header?: Record<string, unknown>; readonly path?: Record<string, unknown> };
  /** An id of this call, the same in its three hooks. */
  readonly id: string;
}

/**
 * An openapi-fetch style middleware object: `onRequest` may return a new `Request` (or a `Response` to answer
 * without sending), `onResponse` a new `Response`, `onError` a `Response` or an `Error`. It runs once per call,
 * around the SDK's retries.
 */
export interface RawFetchMiddleware {
  onRequest?(context: RawMiddlewareContext): void | Request | Response | undefined | Promise<Request | Response | undefined | void>;
  onResponse?(context: RawMiddlewareContext & { readonly response: Response }): void | Response | undefined | Promise<Response | undefined | void>;
  onError?(context: RawMiddlewareContext & { readonly error: unknown }): void | Response | Error | Promise<void | Response | Error>;
}

/**
 * Typed calls to any path of openapi.json, for routes the resource classes do not wrap (`GET`, `POST`, `PUT`,
 * `PATCH`, `DELETE`, typed by the generated `paths`; openapi-fetch's client at run time) with the SDK's own
 * transport under it: the key on the header its plane takes, the client's headers and options, retries
 * (`Retry-After`), trace ids on execute calls, an OpenTelemetry span, and typed errors.
 *
 * A non-2xx answer throws its typed `OzAPIError` (as every call of the SDK does), so `error` of an answer is always
 * undefined and `data` is the 2xx body, typed as its JSON answer. Pass `parseAs: 'text'` for the markdown, text and
 * YAML wires and `parseAs: 'stream'` (with `stream: true` or an `execute-stream` route) for events.
 */
export interface OzRawClient {
  /** Calls a GET operation. */
  readonly GET: RawMethodCall<'get'>;
  /** Calls a POST operation. */
  readonly POST: RawMethodCall<'post'>;
  /** Calls a PUT operation. */
  readonly PUT: RawMethodCall<'put'>;
  /** Calls a PATCH operation. */
  readonly PATCH: RawMethodCall<'patch'>;
  /** Calls a DELETE operation. */
  readonly DELETE: RawMethodCall<'delete'>;
  /** Calls the operation of `method` (lower case) at `path`. */
  request<M extends RawMethod, P extends RawPath<M>, Init extends RawInit<RawOperation<P, M>>>(
    method: M,
    path: P,
    ...init: InitArgument<RawOperation<P, M>, Init>
  ): Promise<RawAnswerOf<RawOperation<P, M>, Init>>;
  /**
   * Adds middleware to the raw calls: a function `(request, next, context) => Promise<Response>` is the SDK's
   * {@link Middleware} (the client's own mechanism: it runs inside the client's middleware, on every attempt);
   * an openapi-fetch middleware object (`onRequest`, `onResponse`, `onError`) runs as openapi-fetch runs it, once
   * per call around the SDK's retries.
   */
  use(...middleware: Array<Middleware | RawFetchMiddleware>): void;
  /** Removes middleware added with `use()`. */
  eject(...middleware: Array<Middleware | RawFetchMiddleware>): void;
}
