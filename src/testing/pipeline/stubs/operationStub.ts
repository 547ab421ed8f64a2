import type { components, operations } from '../../../generated/openapi.js';
import type { OPERATIONS, OperationId } from '../../../generated/operations.js';
import type { ChatReply, LastUserMessageMatch } from './chatScript.js';
import type { ProxyAnswer } from './proxyAnswer.js';

// The types of a stub for one operation, read from the generated types of openapi.json (`operations`, the
// operation table): nothing here names an operation, so a new operation or field of openapi.json types its stubs
// after `npm run generate`.

type Op<I extends OperationId> = operations[I];
type Parameters<I extends OperationId, Where extends 'path' | 'query'> = NonNullable<Op<I>['parameters'][Where]>;
/** Parameters as a stub matches them: every value a string, as on the URL. */
type AsStrings<P> = [P] extends [never] ? never : { readonly [K in keyof P]?: string };
type JsonOf<Content> = Content extends { 'application/json': infer B } ? B : Content extends Record<string, infer B> ? B : never;

/** The JSON body of the operation's request (`never` for an operation without one). */
export type OperationRequestBody<I extends OperationId> =
  Op<I> extends { requestBody?: infer R } ? (R extends { content: infer C } ? JsonOf<C> : never) : never;

type Responses<I extends OperationId> = Op<I>['responses'];
/** The statuses openapi.json lists for the operation. */
export type OperationStatus<I extends OperationId> = Extract<keyof Responses<I>, number>;
/** The JSON body of the operation's answer with status `S` (`never`: that status answers no body). */
export type OperationAnswerBody<I extends OperationId, S extends OperationStatus<I>> = Responses<I>[S] extends { content: infer C } ? JsonOf<C> : never;

type Streaming<I extends OperationId> = (typeof OPERATIONS)[I]['streaming'];
type ExecuteEvent<E = components['schemas']['ExecuteStreamEvent']> = E extends { event: infer N; data: infer D }
  ? { readonly event: N; readonly data: D; readonly delayMs?: number }
  : never;
type ChatEvent = { readonly event?: undefined; readonly data: components['schemas']['ChatCompletionChunk']; readonly delayMs?: number };
/** One event of the operation's stream: a named execute event, or a chat completion chunk (`never`: it never streams). */
export type OperationStreamEvent<I extends OperationId> = Streaming<I> extends 'none' ? never : Streaming<I> extends 'chat' ? ChatEvent : ExecuteEvent;

type Headers = Readonly<Record<string, string>>;
/** A body answer of one status (a status without a body takes none). */
type BodyAnswer<I extends OperationId, S extends OperationStatus<I>> = [OperationAnswerBody<I, S>] extends [never]
  ? { readonly status: S; readonly body?: undefined; readonly headers?: Headers; readonly events?: undefined; readonly cut?: undefined }
  : { readonly status: S; readonly body: OperationAnswerBody<I, S>; readonly headers?: Headers; readonly events?: undefined; readonly cut?: undefined };
/** A streamed answer, for an operation that streams. */
type EventsAnswer<I extends OperationId> = [OperationStreamEvent<I>] extends [never]
  ? never
  : {
      readonly status: 200;
      readonly body?: undefined;
      readonly headers?: Headers;
      readonly events: readonly OperationStreamEvent<I>[];
      readonly cut?: { readonly afterEvents: number };
    };

/** A scripted reply, for a chat completion: the models plane renders it (as a completion or as its chunks). */
type ReplyAnswer<I extends OperationId> =
  Streaming<I> extends 'chat'
    ? {
        readonly status?: 200;
        readonly reply: ChatReply;
        readonly headers?: Headers;
        readonly body?: undefined;
        readonly events?: undefined;
        readonly cut?: undefined;
      }
    : never;

/** An answer of the operation: a status openapi.json lists with that status's body, a stream's events, a chat reply, or a proxy. */
export type OperationAnswer<I extends OperationId> =
  { [S in OperationStatus<I>]: BodyAnswer<I, S> }[OperationStatus<I>] | EventsAnswer<I> | ReplyAnswer<I> | ProxyStubAnswer | TextAnswer<I>;

/** Text sent as it came (a recorded markdown or text answer), with a status openapi.json lists. */
type TextAnswer<I extends OperationId> = {
  readonly status: OperationStatus<I>;
  readonly text: string;
  readonly contentType: string;
  readonly headers?: Headers;
  readonly body?: undefined;
  readonly events?: undefined;
  readonly cut?: undefined;
};

/** A proxy answer, for every operation: the request goes on to another service, whose answer comes back as it came. */
type ProxyStubAnswer = ProxyAnswer & {
  readonly status?: undefined;
  readonly body?: undefined;
  readonly events?: undefined;
  readonly cut?: undefined;
  readonly headers?: undefined;
};

/** Which requests of the operation a stub answers, by the operation's own parameters and body. */
export interface OperationStubMatch<I extends OperationId> {
  readonly path?: AsStrings<Parameters<I, 'path'>>;
  readonly query?: AsStrings<Parameters<I, 'query'>>;
  readonly body?: Partial<OperationRequestBody<I>>;
  readonly account?: string;
  /** Of a chat completion: the last user message's text contains a string or matches a pattern. */
  readonly lastUserMessage?: Streaming<I> extends 'chat' ? LastUserMessageMatch : never;
}

/** A request of the operation as a stub's `respond` sees it. */
export interface OperationStubRequest<I extends OperationId> {
  readonly operationId: I;
  readonly path: { readonly [K in keyof Parameters<I, 'path'>]: string };
  readonly query: Readonly<Record<string, string>>;
  readonly body: [OperationRequestBody<I>] extends [never] ? Readonly<Record<string, never>> : OperationRequestBody<I>;
  readonly account: string | null;
  readonly headers: globalThis.Headers;
}

/** What every stub of the operation gives: the operation, and which requests it answers. */
interface OperationStubBase<I extends OperationId> {
  readonly operationId: I;
  readonly match?: OperationStubMatch<I>;
  readonly times?: number;
}

/**
 * A stub of operation `I`, typed by openapi.json: `match` by its parameters and body, `answer.body` by the status,
 * `events` by its stream, `respond` by its request and answers. `unchecked: true` (an answer openapi.json does not
 * allow, to test a client's defences) takes any answer.
 */
export type OperationStub<I extends OperationId> = OperationStubBase<I> &
  (
    | { readonly answer: OperationAnswer<I>; readonly answers?: undefined; readonly then?: undefined; readonly respond?: undefined; readonly unchecked?: false }
    | {
        readonly answers: readonly OperationAnswer<I>[];
        readonly then?: 'repeat' | 'fallthrough';
        readonly answer?: undefined;
        readonly respond?: undefined;
        readonly unchecked?: false;
      }
    | {
        readonly respond: (request: OperationStubRequest<I>) => OperationAnswer<I> | undefined | void | Promise<OperationAnswer<I> | undefined | void>;
        readonly answer?: undefined;
        readonly answers?: undefined;
        readonly then?: undefined;
        readonly unchecked?: false;
      }
  );

/** An unchecked stub (`unchecked: true`): any status, body or events, to test a client's defences. */
export interface UncheckedOperationStub {
  readonly operationId: OperationId;
  readonly match?: {
    readonly path?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, string>>;
    readonly body?: Readonly<Record<string, unknown>>;
    readonly account?: string;
  };
  readonly times?: number;
  readonly unchecked: true;
  readonly answer?: {
    readonly status: number;
    readonly body?: unknown;
    readonly text?: string;
    readonly contentType?: string;
    readonly headers?: Headers;
    readonly events?: readonly { readonly event?: string; readonly data: unknown; readonly delayMs?: number }[];
    readonly cut?: { readonly afterEvents: number };
  };
  readonly answers?: ReadonlyArray<NonNullable<UncheckedOperationStub['answer']>>;
  readonly then?: 'repeat' | 'fallthrough';
  readonly respond?: (request: {
    readonly path: Readonly<Record<string, string>>;
    readonly query: Readonly<Record<string, string>>;
    readonly body: Readonly<Record<string, unknown>>;
    readonly account: string | null;
    readonly headers: globalThis.Headers;
  }) => unknown;
}

/** A typed stub of any operation: the union of every {@link OperationStub}, told apart by `operationId`. */
export type TypedOperationStub = { [I in OperationId]: OperationStub<I> }[OperationId];

/** A stub of any operation: the union of every {@link OperationStub}, told apart by `operationId`, or an unchecked one. */
export type AnyOperationStub = TypedOperationStub | UncheckedOperationStub;
