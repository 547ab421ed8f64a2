import { abortError, OzAbortError, OzTimeoutError, OzUsageError } from '../errors/errors.js';
import { OzAPIError } from '../errors/apiErrors.js';
import { SseReader, type SseEvent, type SseRead } from './sseReader.js';
import {
  OzStreamEventTooLargeError,
  OzStreamIdleTimeoutError,
  OzStreamInterruptedError,
  OzStreamTimeoutError,
  type StreamInterruption,
} from './streamErrors.js';
import { CHAT_DONE, errorEventText, eventText, readStreamEvent, resultOf, textOf, type StreamMeta, type StreamMode } from './streamProtocol.js';
import { checkedStreamBounds, DEFAULT_IDLE_TIMEOUT_MS } from './streamBounds.js';
import { TextBuffer } from './textBuffer.js';

// The bounds' defaults and checks are in streamBounds.ts, which the transport reads without loading the Stream.
export { checkedStreamBounds, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_EVENT_BYTES } from './streamBounds.js';

/** One server-sent event as an execute stream hands it out: its name and its parsed `data`. */
export interface ServerSentEvent<Name extends string = string, Data = unknown> {
  /** The event's name (`token`, `step`, `result`, `error`). */
  event: Name;
  /** The event's `data`, parsed from JSON. */
  data: Data;
}

/** How a {@link Stream} reads its response. */
export interface StreamOptions {
  /** `events`: execute streams' `{event, data}` items; `chat`: OpenAI chunks until `data: [DONE]`. */
  mode: StreamMode;
  /**
   * Milliseconds the reads may wait in all without a complete event before the stream is closed with
   * {@link OzStreamIdleTimeoutError} (default 300000, 5 minutes; `Infinity` turns it off). Comments (`: ping`)
   * keep the connection alive, not the stream.
   */
  idleTimeout?: number | undefined;
  /**
   * Bytes one event may take before it is complete (default 16 MiB, `DEFAULT_MAX_EVENT_BYTES`); past them the
   * stream is closed with {@link OzStreamEventTooLargeError}.
   */
  maxEventBytes?: number | undefined;
  /**
   * Milliseconds the whole stream may last, from its answer to its closing event, however lively (default
   * `Infinity`: no limit); past them the stream is closed with {@link OzStreamTimeoutError}.
   */
  streamTimeout?: number | undefined;
  /**
   * Keep the text of the deltas, for {@link Stream.finalText}, {@link Stream.receivedText} and the
   * interruption error's `receivedText` (default true). Turn it off for outputs too large to hold in memory.
   */
  retainText?: boolean | undefined;
  /**
   * Called once when the stream is done: with no error after its closing event, else with why it was not (an
   * interruption, an error event, an abort, an early close).
   */
  onEnd?: ((error?: unknown) => void) | undefined;
  /**
   * The call's signal: once it aborts, the iterator hands out no further event, not even one that arrived with
   * the bytes already read; it throws {@link OzAbortError}.
   */
  signal?: AbortSignal | undefined;
  /**
   * Sees every item before it is handed out (the client's response validation); what it throws ends the stream
   * with that error.
   */
  checkItem?: ((item: unknown) => void) | undefined;
}

/** The `data` of the `result` event of a stream's events: the execution result envelope (never for chat). */
export type StreamResult<E> = E extends { event: 'result'; data: infer D } ? D : never;

type State = 'new' | 'reading' | 'teed' | 'ended';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const SKIPPED = Symbol('skipped');

/**
 * A live server-sent event stream, like openai-node's `Stream`: an async iterable of typed events.
 *
 * - Execute streams (`stream: true`, `executeStream`) give `{event: 'token', data: {delta}}`, `{event: 'step',
 *   data: {task_id, status}}`, and end with `{event: 'result', data: <ExecutionResult>}`. A closing `error`
 *   event is thrown from the iterator as the typed error of its code (`InvalidParamsError`, ...), not yielded.
 * - Chat streams give OpenAI `chat.completion.chunk` objects until `data: [DONE]`.
 * - Comments (`: ping`) are skipped; they keep the connection alive, not the stream: its `idleTimeout` counts
 *   the time waited since the last event. Events of kinds this SDK does not know are skipped too (they are
 *   progress). One event may take `maxEventBytes` (16 MiB by default) and the whole stream `streamTimeout`
 *   (no limit by default): past them it throws {@link OzStreamEventTooLargeError} or {@link OzStreamTimeoutError}.
 * - Breaking out of the loop, {@link Stream.close}, or aborting the call's `signal` closes the connection at
 *   once; the listener the call added to the signal is removed when the stream ends in any way.
 * - A stream cut before its closing event throws {@link OzStreamInterruptedError} (with `executionId` and
 *   `receivedText`); one silent for `idleTimeout` throws {@link OzStreamIdleTimeoutError}. A stream is never
 *   retried after its first byte: the run goes on, read it with `client.executions.wait(error.executionId)`.
 *
 * A stream is read once: by a loop, {@link Stream.textDeltas}, {@link Stream.toReadableStream}, or by
 * {@link Stream.finalResult} / {@link Stream.finalText}, which read it to its end when nothing else does
 * (and otherwise wait for the loop reading it to end: await them after that loop, not inside it). Split it
 * with {@link Stream.tee} to read it twice.
 */
export class Stream<E> implements AsyncIterable<E> {
  readonly #response: Response;
  readonly #signal: AbortSignal | undefined;
  readonly #mode: StreamMode;
  readonly #idleTimeout: number;
  readonly #maxEventBytes: number;
  readonly #streamTimeout: number;
  readonly #deadlineAt: number;
  readonly #retainText: boolean;
  readonly #meta: StreamMeta;
  readonly #checkItem: ((item: unknown) => void) | undefined;
  readonly #text: TextBuffer | undefined;
  readonly #outcome: Promise<void>;
  #settle!: (error?: unknown) => void;
  #state: State = 'new';
  #reader: SseReader | undefined;
  #result: { data: unknown } | undefined;
  #closed = false;

  /**
   * A stream over a `text/event-stream` response (the SDK's calls make them for you). A stream written by
   * {@link Stream.toReadableStream} can be read again with `new Stream(new Response(readable), { mode })`.
   */
  constructor(response: Response, options: StreamOptions) {
    const { idleTimeout, maxEventBytes, streamTimeout } = checkedStreamBounds(options);
    this.#response = response;
    this.#maxEventBytes = maxEventBytes;
    this.#streamTimeout = streamTimeout;
    this.#deadlineAt = Date.now() + streamTimeout;
    this.#signal = options.signal;
    this.#mode = options.mode;
    this.#idleTimeout = idleTimeout;
    this.#retainText = options.retainText ?? true;
    this.#checkItem = options.checkItem;
    this.#text = this.#retainText ? new TextBuffer() : undefined;
    this.#meta = {
      executionId: response.headers.get('x-execution-id') || undefined,
      requestId: response.headers.get('x-request-id') || undefined,
    };
    const onEnd = options.onEnd;
    this.#outcome = new Promise<void>((resolve, reject) => {
      this.#settle = (error?: unknown) => (error === undefined ? resolve() : reject(error));
    });
    if (onEnd) this.#outcome.then(() => onEnd(), onEnd);
    // Nobody may ever ask for the outcome; a failed stream must not raise an unhandled rejection for it.
    this.#outcome.catch(() => undefined);
  }

  /** The raw `Response` of the stream (its body is read by the stream). */
  get response(): Response {
    return this.#response;
  }

  /** The `x-request-id` of the stream's response. */
  get requestId(): string | null {
    return this.#meta.requestId ?? null;
  }

  /** The `X-Execution-Id` of the stream's response: the run it reports on (null on chat streams). */
  get executionId(): string | null {
    return this.#meta.executionId ?? null;
  }

  /** The text of the deltas received so far; undefined with `retainText: false` (`retainStreamText`). */
  get receivedText(): string | undefined {
    return this.#text?.toString();
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    this.#start();
    return {
      next: () => this.#next(),
      return: async () => {
        await this.#closeEarly();
        return DONE;
      },
    };
  }

  /**
   * Only the text deltas: a `token`'s `delta`, or a chat chunk's `choices[0].delta.content` (empty ones are
   * skipped). Reads the stream; breaking out closes it.
   *
   * @example
   * for await (const text of stream.textDeltas()) process.stdout.write(text);
   * const result = await stream.finalResult();
   */
  async *textDeltas(): AsyncGenerator<string, void, undefined> {
    for await (const item of this) {
      const text = textOf(this.#mode, item);
      if (text !== undefined) yield text;
    }
  }

  /**
   * The `result` event's data (the execution result envelope), once the stream has ended. Reads the stream
   * to its end unless a loop already reads it; rejects with the stream's error (the typed error of an `error`
   * event, an interruption, an abort). Not for chat streams, which have no result event (use `finalText()`).
   */
  async finalResult(): Promise<StreamResult<E>> {
    if (this.#mode !== 'events') throw new OzUsageError('A chat stream has no result event; use finalText() for its text.');
    await this.#untilEnded();
    return this.#result?.data as StreamResult<E>;
  }

  /**
   * The whole text of the deltas, once the stream has ended (reading it to its end unless a loop already reads
   * it). Needs `retainText` (on by default).
   */
  async finalText(): Promise<string> {
    if (!this.#text) throw new OzUsageError('finalText() needs the stream text, which this call did not keep (retainStreamText: false).');
    await this.#untilEnded();
    return this.#text.toString();
  }

  /**
   * The stream as `text/event-stream` bytes, normalized (`event: token` ... `event: result`; chat chunks then
   * `data: [DONE]`): serve it as is to a browser, or read it again with
   * `new Stream(new Response(readable), { mode })`. A closing error is written as an `error` event; an
   * interruption errors the readable. Cancelling the readable closes this stream.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const iterator = this[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const mode = this.#mode;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { done, value } = await iterator.next();
            if (!done) return controller.enqueue(encoder.encode(eventText(mode, value)));
            if (mode === 'chat') controller.enqueue(encoder.encode(CHAT_DONE));
            controller.close();
          } catch (error) {
            if (error instanceof OzAPIError) {
              controller.enqueue(encoder.encode(errorEventText(error)));
              controller.close();
            } else {
              controller.error(error);
            }
          }
        },
        async cancel() {
          await iterator.return?.();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /**
   * Two streams over this one's connection, each reading every event (the faster one's events are buffered for
   * the slower). Call it before reading; this stream is then used up. The connection closes when both are
   * closed or read to the end, or at once when the call's `signal` aborts.
   */
  tee(): [Stream<E>, Stream<E>] {
    if (this.#state !== 'new') throw new OzUsageError('tee() must be called before the stream is read.');
    this.#state = 'teed';
    const options: StreamOptions = {
      mode: this.#mode,
      idleTimeout: this.#idleTimeout,
      maxEventBytes: this.#maxEventBytes,
      streamTimeout: Math.max(1, this.#deadlineAt - Date.now()),
      retainText: this.#retainText,
    };
    const { status, statusText, headers } = this.#response;
    const branch = (body: ReadableStream<Uint8Array> | null) => new Stream<E>(new Response(body, { status, statusText, headers }), options);
    const body = this.#response.body;
    if (!body) return [branch(null), branch(null)];
    const [left, right] = body.tee();
    return [branch(detached(left)), branch(detached(right))];
  }

  /** Closes the connection now. A loop reading the stream ends; `finalResult()` and `finalText()` reject. */
  async close(): Promise<void> {
    await this.#closeEarly();
  }

  #start(): void {
    if (this.#state === 'teed') throw new OzUsageError('This stream was split with tee(); read its two branches instead.');
    if (this.#closed) throw new OzUsageError('This stream was closed before it was read.');
    if (this.#state !== 'new') throw new OzUsageError('A Stream can be read only once; split it with tee() to read it twice.');
    this.#state = 'reading';
    const body = this.#response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    this.#reader = new SseReader(body, { idleTimeoutMs: this.#idleTimeout, maxEventBytes: this.#maxEventBytes, deadlineAt: this.#deadlineAt });
  }

  /**
   * The next item. Events already parsed (a chunk holds many) are handed out without an async step: on a fast
   * stream, the promise machinery of one async call per event cost more than parsing the event.
   */
  #next(): Promise<IteratorResult<E>> {
    for (;;) {
      if (this.#state !== 'reading') return Promise.resolve(DONE);
      if (this.#signal?.aborted) return this.#failWith(this.#abortError(abortError(this.#signal)));
      const message = this.#reader!.take();
      if (message === undefined) return this.#nextRead();
      const handled = this.#handle(message);
      if (handled !== SKIPPED) return handled;
    }
  }

  /** The next item once the body gives more bytes. */
  async #nextRead(): Promise<IteratorResult<E>> {
    for (;;) {
      if (this.#state !== 'reading') return DONE;
      let read: SseRead;
      try {
        read = await this.#reader!.next();
      } catch (cause) {
        if (this.#state !== 'reading') return DONE;
        throw await this.#fail(this.#readError(cause));
      }
      // Closed by the caller while the read waited.
      if (this.#state !== 'reading') return DONE;
      if (read.kind === 'idle') throw await this.#fail(new OzStreamIdleTimeoutError(this.#idleTimeout, this.#interruption()));
      if (read.kind === 'tooLarge') throw await this.#fail(new OzStreamEventTooLargeError(this.#maxEventBytes, this.#interruption(), this.#pollHint()));
      if (read.kind === 'deadline') throw await this.#fail(new OzStreamTimeoutError(this.#streamTimeout, this.#interruption(), this.#pollHint()));
      if (read.kind === 'end') {
        const closing = this.#mode === 'chat' ? '`data: [DONE]`' : 'closing `result` or `error` event';
        throw await this.#fail(new OzStreamInterruptedError(`The stream ended before its ${closing}.${this.#pollHint()}`, this.#interruption()));
      }
      const handled = this.#handle(read.message);
      if (handled !== SKIPPED) return handled;
    }
  }

  /** What one event means for the iterator: an item, the end, an error, or nothing (`SKIPPED`). */
  #handle(message: SseEvent): Promise<IteratorResult<E>> | typeof SKIPPED {
    let step;
    try {
      step = readStreamEvent<E>(this.#mode, message, this.#meta);
      if (step.kind === 'item') this.#checkItem?.(step.item);
    } catch (error) {
      return this.#failWith(error);
    }
    switch (step.kind) {
      case 'skip':
        return SKIPPED;
      case 'error':
        return this.#failWith(step.error);
      case 'done':
        return this.#endWith(DONE);
      case 'item':
        if (step.text !== undefined) this.#text?.append(step.text);
        if (step.closing) {
          this.#result = resultOf(this.#mode, step.item);
          return this.#endWith({ done: false, value: step.item });
        }
        return Promise.resolve({ done: false, value: step.item });
    }
  }

  async #failWith(error: unknown): Promise<never> {
    throw await this.#fail(error);
  }

  async #endWith(result: IteratorResult<E>): Promise<IteratorResult<E>> {
    await this.#end();
    return result;
  }

  /** The stream ended with its closing event: nothing more is read. */
  async #end(): Promise<void> {
    this.#state = 'ended';
    await this.#reader?.cancel();
    this.#settle();
  }

  async #fail(error: unknown): Promise<unknown> {
    this.#state = 'ended';
    await this.#reader?.cancel();
    this.#settle(error);
    return error;
  }

  async #closeEarly(): Promise<void> {
    const state = this.#state;
    if (state === 'ended' || state === 'teed') return;
    this.#state = 'ended';
    this.#closed = state === 'new';
    this.#settle(new OzUsageError('The stream was closed before its end (a loop broke out, or close() was called).'));
    if (state === 'new') await this.#response.body?.cancel().catch(() => undefined);
    else await this.#reader?.cancel();
  }

  async #untilEnded(): Promise<void> {
    if (this.#state === 'new') {
      const iterator = this[Symbol.asyncIterator]();
      while (!(await iterator.next()).done);
    }
    if (this.#state === 'teed') throw new OzUsageError('This stream was split with tee(); read its two branches instead.');
    await this.#outcome;
  }

  /** The typed error of a failed body read: an abort stays one; anything else cut the stream. */
  #readError(cause: unknown): unknown {
    if (cause instanceof OzAbortError) return this.#abortError(cause);
    if (cause instanceof OzTimeoutError) {
      return new OzStreamIdleTimeoutError(this.#idleTimeout, this.#interruption(), { cause, message: cause.message });
    }
    return new OzStreamInterruptedError(`The stream was cut before its end.${this.#pollHint()}`, this.#interruption(), { cause });
  }

  /** The caller's abort, with the stream's execution id when it is known. */
  #abortError(error: OzAbortError): OzAbortError {
    if (this.#meta.executionId !== undefined) error.executionId ??= this.#meta.executionId;
    return error;
  }

  #interruption(): StreamInterruption {
    return { executionId: this.#meta.executionId, requestId: this.#meta.requestId, receivedText: this.#text?.toString() };
  }

  #pollHint(): string {
    const id = this.#meta.executionId;
    return id ? ` The run goes on: read its outcome with client.executions.wait('${id}').` : '';
  }
}

/**
 * A tee branch whose `cancel()` settles at once: a branch of `ReadableStream.tee()` settles its cancel only when
 * the other branch is cancelled too, which would hold a loop that breaks out of one branch.
 */
function detached(branch: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = branch.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        void reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
