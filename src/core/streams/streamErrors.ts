import { OzConnectionError, OzError } from '../errors/errors.js';

/** Where a stream stood when it was cut: what a caller needs to fall back to polling its execution. */
export interface StreamInterruption {
  /** The stream's `X-Execution-Id`: poll it with `client.executions.wait(executionId)`. */
  executionId: string | undefined;
  /** The stream's `x-request-id`. */
  requestId: string | undefined;
  /**
   * The text received before the cut (the `token` deltas, or the chat chunks' `delta.content`); undefined when
   * the call was made with `retainStreamText: false`.
   */
  receivedText: string | undefined;
}

/**
 * A stream ended before its closing event (`result` or `error`; `data: [DONE]` for chat): the connection was cut
 * or failed after the first byte. Streams are never retried after their first byte, since the run goes on on the
 * service: read its outcome with `client.executions.wait(error.executionId)`.
 */
export class OzStreamInterruptedError extends OzConnectionError implements StreamInterruption {
  override name = 'OzStreamInterruptedError';
  /** The stream's execution: poll it with `client.executions.wait(executionId)`, the run goes on. */
  readonly executionId: string | undefined;
  /** The `x-request-id` of the stream's answer. */
  readonly requestId: string | undefined;
  /** The text received before the cut (undefined with `retainStreamText: false`). */
  readonly receivedText: string | undefined;

  constructor(message: string, interruption: StreamInterruption, options?: ErrorOptions) {
    super(message, options);
    this.executionId = interruption.executionId;
    this.requestId = interruption.requestId;
    this.receivedText = interruption.receivedText;
  }
}

/**
 * A stream received no event for `idleTimeout` milliseconds of waiting (comments such as `: ping` and parts of an
 * unfinished event keep the connection alive, not the stream), and was closed. Also
 * raised for undici's own `bodyTimeout` (300 s) of Node's built-in `fetch`. A kind of
 * {@link OzStreamInterruptedError}: it carries the execution id and the text received so far.
 */
export class OzStreamIdleTimeoutError extends OzStreamInterruptedError {
  override name = 'OzStreamIdleTimeoutError';
  /** The idle timeout that passed, in milliseconds. */
  readonly idleTimeout: number;

  /** @param options - `message` replaces the default one (undici's own timeout says so). */
  constructor(idleTimeout: number, interruption: StreamInterruption, options?: ErrorOptions & { message?: string }) {
    super(options?.message ?? `The stream received no event for ${idleTimeout} ms and was closed (idleTimeout).`, interruption, options);
    this.idleTimeout = idleTimeout;
  }
}

/** An event of a stream whose data is not what the protocol says (not JSON, or not an object). */
export class OzStreamProtocolError extends OzError {
  override name = 'OzStreamProtocolError';
  /** The event's name (`message` when it had none). */
  readonly event: string;
  /** The event's data, cut to its first 500 characters. */
  readonly data: string;

  constructor(event: string, data: string, options?: ErrorOptions) {
    super(`The stream sent a \`${event}\` event whose data is not a JSON object: ${JSON.stringify(data.slice(0, 120))}`, options);
    this.event = event;
    this.data = data.slice(0, 500);
  }
}

/**
 * One event of a stream passed `maxEventBytes` (16 MiB by default) before it was complete (a line that never
 * ends, or an event that never closes), and the stream was closed: the client holds no more than the bound. A
 * kind of {@link OzStreamInterruptedError}: it carries the execution id and the text received so far.
 */
export class OzStreamEventTooLargeError extends OzStreamInterruptedError {
  override name = 'OzStreamEventTooLargeError';
  /** The bound that was passed, in bytes. */
  readonly maxEventBytes: number;

  constructor(maxEventBytes: number, interruption: StreamInterruption, hint = '') {
    super(`One event of the stream passed ${maxEventBytes} bytes before it was complete, and the stream was closed (maxEventBytes).${hint}`, interruption);
    this.maxEventBytes = maxEventBytes;
  }
}

/**
 * A stream had not ended `streamTimeout` milliseconds after its answer came, and was closed, however lively it
 * was. A kind of {@link OzStreamInterruptedError}: it carries the execution id and the text received so far.
 */
export class OzStreamTimeoutError extends OzStreamInterruptedError {
  override name = 'OzStreamTimeoutError';
  /** The overall time the stream was given, in milliseconds. */
  readonly streamTimeout: number;

  constructor(streamTimeout: number, interruption: StreamInterruption, hint = '') {
    super(`The stream had not ended ${streamTimeout} ms after its answer came, and was closed (streamTimeout).${hint}`, interruption);
    this.streamTimeout = streamTimeout;
  }
}
