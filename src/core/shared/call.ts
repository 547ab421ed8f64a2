import type { ParsedResponse } from '../result/answerTypes.js';
import type { Credentials } from './credentials.js';
import type { ExecutionReader } from './pollTypes.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import type { HeaderRecord } from './headerValue.js';
import type { Middleware } from './middleware.js';
import type { Operation, RequestInput } from './operation.js';
import type { AuthHeader, FetchLike, FetchOptions, Format, RequestOptions } from './requestOptions.js';
import type { AnswerValidatorLoader, ValidateMode } from './responseValidation.js';
import type { RetryPolicy } from './retryOptions.js';
import type { CallSpan } from '../telemetry/tracing.js';
import type { Logging } from './logger.js';

// A call as the transport resolves it: its settings, its request (the same on every attempt) and its answer, as
// the steps of a call (src/core/README.md lists them in order) hand them on.

/**
 * What a client's options, and a call's own over them, decide of how its calls are made. A call that gives none of
 * these options (`OWN_SETTINGS`) takes its client's as they are; one that gives any has them applied by
 * `options/callSettings.ts`.
 */
export interface CallSettings {
  readonly credentials: Credentials;
  readonly baseURL: string;
  readonly authHeader: AuthHeader;
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

/** One call, resolved once: the same URL, headers and body bytes go out on every attempt. */
export interface Call {
  /** What the client's options, and the call's own over them, decided of how it is made. */
  readonly settings: CallSettings;
  readonly op: Operation;
  readonly mode: 'parse' | 'stream';
  readonly format: Format;
  readonly url: string;
  /** Lower-case names (see {@link HeaderRecord}), handed to every fetch as they are. */
  readonly headers: HeaderRecord;
  readonly body: string | undefined;
  readonly traceId: string | undefined;
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
}

/** An answer with a 2xx status (its body read, or bound to the caller's signal for a stream). */
export interface Answer {
  readonly response: Response;
  readonly text: string;
  /** The body was left unread for `asResponse()`. */
  readonly unread?: boolean;
}

export type Sent = { kind: 'answer'; answer: Answer } | { kind: 'lost'; conflict: OzAPIError };

/** What the steps of a call (retries, recovery, answers, validation, raw calls) use of a transport and do through it. */
export interface CallPort extends ExecutionReader {
  /**
   * The transport's config: `executionRecord` (where a lost answer's execution is read), `pollIntervalMs` (its
   * first poll interval), `loadValidators` (the answer validators' loader).
   */
  readonly config: {
    readonly executionRecord: Operation;
    readonly pollIntervalMs?: number | undefined;
    readonly loadValidators: AnswerValidatorLoader;
  };
  prepare(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse' | 'stream'): Promise<Call>;
  /** Attempts a call until its answer is final (see `Transport.send`). */
  send(call: Call): Promise<Sent>;
  /** One attempt of a call (`attempt` counts from 0): its answer, or the typed error it failed with. */
  attempt(call: Call, attempt: number): Promise<Answer>;
  /** Sends a prepared call and parses its answer. */
  answer(call: Call): Promise<ParsedResponse<unknown>>;
  /** A 2xx body on its wire. */
  decode(text: string, contentType: string | null, requested: Format): unknown;
}

/**
 * How a streaming operation's answer becomes its `Stream` (`answer/streamAnswer.ts`). The generated table gives it
 * to each streaming operation and to no other, so a program whose calls never stream does not bundle the stream code.
 */
export type StreamAnswer = (port: CallPort, call: Call, response: Response) => Promise<ParsedResponse<unknown>>;

/** A streaming operation (`streaming` is not `none`), as the generated table writes it: with its stream's reader. */
export interface StreamingOperation extends Operation {
  readonly streamAnswer: StreamAnswer;
}
