import type { AttemptSignal } from './attemptSignal.js';
import type { Credentials } from './credentials.js';
import type { ExecutionReader } from './pollTypes.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import type { HeaderRecord } from './headerValue.js';
import type { Middleware } from './middleware.js';
import type { Operation } from './operation.js';
import type { AuthHeader, FetchLike, FetchOptions, Format, QueryParams, RequestOptions } from './requestOptions.js';
import type { AnswerValidatorLoader, ValidateMode } from './responseValidation.js';
import type { RetryPolicy } from './retryOptions.js';
import type { CallSpan } from './spanTypes.js';
import type { Logging } from './logger.js';

// A call as the transport resolves it, and what each step of its chain (src/core/README.md lists them in order)
// hands the next and answers.

/**
 * What a client's options, and a call's own over them, decide of how its calls are made. A call that gives none of
 * these options (`OWN_SETTINGS`) takes its client's as they are; one that gives any has them applied by
 * `options/callSettings.ts`.
 */
export interface CallSettings {
  readonly credentials: Credentials;
  readonly baseURL: string;
  readonly authHeader: AuthHeader;
  /** The client's `defaultHeaders` and `defaultQuery`, sent with every call. */
  readonly defaultHeaders: Readonly<Record<string, string>> | undefined;
  readonly defaultQuery: QueryParams | undefined;
  /** The client's middleware, then the call's. */
  readonly middleware: readonly Middleware[];
  readonly retry: RetryPolicy;
  readonly logging: Logging;
  /** As given (checked); `off` also when the layer above gave no validators. */
  readonly validate: ValidateMode;
  /** The stream bounds given (checked), each absent for the stream's default. */
  readonly idleTimeout?: number | undefined;
  readonly maxEventBytes?: number | undefined;
  readonly streamTimeout?: number | undefined;
  readonly fetch: FetchLike;
  /** `fetchOptions` of the client and the call, merged; undefined when neither has any. */
  readonly fetchOptions: FetchOptions | undefined;
}

/**
 * What every call of one client shares (one object per transport): what the layer above gave the core of the
 * contract, and the count that numbers the calls in log lines.
 */
export interface CallClient {
  /** `GET /v1/executions/{id}` as the generated operations table describes it: where a lost answer's run is read. */
  readonly executionRecord: Operation;
  /** The first poll interval of a lost answer's run when its record suggests none (ms). */
  readonly pollIntervalMs: number | undefined;
  /** Loads the generated answer validators, on the first call made with validation on. */
  readonly loadValidators: AnswerValidatorLoader;
  /**
   * What a run's pointer `wait()` calls later, when its caller asks: calls of the caller's own, made after this
   * call has ended (no step of a call makes a call through it).
   */
  readonly executions: ExecutionReader;
  /** Calls made so far: the number in each call's log tag. */
  readonly counter: { calls: number };
}

/** One call, resolved once: the same URL, headers and body bytes go out on every attempt. */
export interface Call {
  /** What the client's options, and the call's own over them, decided of how it is made. */
  readonly settings: CallSettings;
  readonly client: CallClient;
  readonly op: Operation;
  readonly mode: 'parse' | 'stream';
  readonly format: Format;
  readonly url: string;
  /** Lower-case names (see {@link HeaderRecord}), handed to every fetch as they are. */
  readonly headers: HeaderRecord;
  readonly body: string | undefined;
  /** The `x-trace-id` sent: the call's idempotency key, which a run takes as its execution id. */
  readonly idempotencyKey: string | undefined;
  readonly asyncRun: boolean;
  /** The key sent (a provider's newer key after a 401). */
  apiKey: string;
  /** The call's promise, whose `asResponse()` asks for the body unread (absent for raw and poll requests). */
  readonly handoff: object | undefined;
  readonly maxRetries: number;
  readonly timeout: number;
  /** Bytes of an answer's body read at most (after decompression): past them, `OzResponseTooLargeError`. */
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal | undefined;
  /** Whether debug lines are written: their headers are only gathered then. */
  readonly debug: boolean;
  readonly tag: string;
  readonly options: RequestOptions;
  /**
   * The call's OpenTelemetry span, when an application registered a tracer provider (a call made for the caller;
   * the polls that recover a lost answer belong to their call's span).
   */
  readonly span: CallSpan | undefined;
  /** The attempt (0 for the first), set by the retry step. */
  readonly attempt: number;
  /** Of one attempt, from the attempt step down: its signal and what its fetch sends. */
  readonly sending?: Sending | undefined;
}

/** One attempt's fetch as the steps under the attempt step hand it on (a middleware may change it). */
export interface Sending {
  /** The attempt's deadline and the caller's abort. */
  readonly signal: AttemptSignal;
  /** What the fetch sends: method, headers, body and the attempt's signal. */
  readonly init: RequestInit;
}

/** What a step answers: the answer as it came, its body read once the attempt step has it, then decoded. */
export interface Answer {
  readonly response: Response;
  /** The body as read (empty while it is unread: under the attempt step, for a stream, or for `asResponse()`). */
  readonly text: string;
  /** The body was left unread for `asResponse()`. */
  readonly unread?: boolean | undefined;
  /** The body decoded on its wire (set by the decoding step, or by the recovery of a lost answer). */
  readonly decoded?: { readonly data: unknown } | undefined;
  /**
   * A retry was answered 409 `duplicate_execution_id`: the first attempt ran, and only its answer was lost (the
   * recovery step reads the run instead).
   */
  readonly lost?: OzAPIError | undefined;
  /** The answer is a `Stream` whose end ends the call's span (the span step then leaves it open). */
  readonly streamed?: boolean | undefined;
}

/** The rest of the chain after a step: hands it a call (the step's own, or one it made) and answers its answer. */
export type Next = (call: Call) => Promise<Answer>;

/** One step of a call: does its part around `next`, the steps after it. */
export type Step = (call: Call, next: Next) => Promise<Answer>;

/**
 * How a streaming operation's answer becomes its `Stream` (`answer/streamAnswer.ts`). The generated table gives it
 * to each streaming operation and to no other, so a program whose calls never stream does not bundle the stream code.
 */
export type StreamAnswer = (call: Call, response: Response) => Promise<Answer>;

/** A streaming operation (`streaming` is not `none`), as the generated table writes it: with its stream's reader. */
export interface StreamingOperation extends Operation {
  readonly streamAnswer: StreamAnswer;
}
