import { abortableSleep, abortError } from './abortableSleep.js';
import { APIPromise } from './apiPromise.js';
import { AttemptSignal } from './attemptSignal.js';
import { OzAbortError, OzUsageError, type OzError } from './errors.js';
import { isUnfinished, recordFailure, type ExecutionRecordAnswer } from './executionRecovery.js';
import type { RequestOptions } from './requestOptions.js';
import type { PollParts } from './pollLoop.js';
import { retryAfterMs, RETRY_AFTER_CAP_MS } from './retryPolicy.js';
import { OzWaitTimeoutError } from './waitTimeoutError.js';

/**
 * The poller's port: the few things it does through the client (the transport is one). It needs nothing else of
 * the transport, and so does not import it.
 */
export interface ExecutionReader {
  /** Reads execution `id`'s record once (`GET /v1/executions/{id}` on the json wire), with its answer. */
  readRecord<Record extends ExecutionRecordAnswer>(id: string, options: RequestOptions): Promise<ExecutionPoll<Record>>;
  /** Waits `ms` between two polls (an abort of `signal` cuts it); by default a timer. */
  sleep?(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** The first interval between two polls, by default. */
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** The longest interval the backoff grows to, by default. */
export const DEFAULT_MAX_POLL_INTERVAL_MS = 5_000;
/** How long a wait lasts at most, by default (10 minutes, like one attempt of a synchronous call). */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/** The shortest wait an answer can ask for between two polls: a `Retry-After: 0` must not become a busy loop. */
export const MIN_POLL_MS = 50;

/** The intervals between polls when the record's answer asks for none: `interval`, growing 1.5 times per poll. */
export interface PollSchedule {
  /** Milliseconds between the first two polls. */
  readonly interval: number;
  /** The longest interval the schedule grows to. */
  readonly maxInterval: number;
}

/** The schedule of `wait()` and of lost-answer recovery, by default: 500 ms growing to 5 s. */
export const DEFAULT_POLL_SCHEDULE: PollSchedule = { interval: DEFAULT_POLL_INTERVAL_MS, maxInterval: DEFAULT_MAX_POLL_INTERVAL_MS };

/**
 * The wait before the next poll. The contract's polling row: an unfinished record's answer may suggest the
 * interval as `retry-after-ms` (milliseconds, preferred, as openai-node reads it) or `Retry-After` (seconds or an
 * HTTP date); a suggestion is kept within [{@link MIN_POLL_MS}, {@link RETRY_AFTER_CAP_MS}]. Without one, the
 * schedule's current interval.
 */
export function nextPollDelay(headers: Headers, interval: number): number {
  const asked = retryAfterMs(headers);
  return asked === undefined ? interval : Math.min(Math.max(asked, MIN_POLL_MS), RETRY_AFTER_CAP_MS);
}

/** One read of an execution record: the record, the answer it came in, and that answer's `x-request-id`. */
export interface ExecutionPoll<Record extends ExecutionRecordAnswer = ExecutionRecordAnswer> {
  readonly record: Record;
  readonly response: Response;
  readonly requestId: string | null;
}

/** What a caller of {@link pollExecution} adds to the loop. */
export interface PollHooks<Record extends ExecutionRecordAnswer> {
  /** Aborts the wait between polls (a read in flight is bound by the caller's own read). */
  readonly signal?: AbortSignal | undefined;
  /** Sees every record read, the finished one included; a promise it returns is awaited, what it throws ends the loop. */
  readonly onRecord?: ((record: Record) => unknown) | undefined;
  /** Called before each wait with its length; throwing ends the loop (a deadline that the wait would pass). */
  readonly beforeWait?: ((wait: number, poll: ExecutionPoll<Record>) => void) | undefined;
  /** Waits between polls (default: a timer, cut by `signal`). */
  readonly sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

/**
 * The one execution poller: reads the record with `read` until it has finished, waiting {@link nextPollDelay}
 * between reads. `executions.wait()`, a pointer's `wait()` and the transport's recovery of a lost answer (for
 * parsed and for streamed calls) all poll through it.
 *
 * @returns The first read whose record is no longer queued or running.
 */
export async function pollExecution<Record extends ExecutionRecordAnswer>(
  read: () => Promise<ExecutionPoll<Record>>,
  schedule: PollSchedule,
  hooks: PollHooks<Record> = {},
): Promise<ExecutionPoll<Record>> {
  return (await (pollLoop ??= import('./pollLoop.js'))).pollExecution(read, schedule, hooks, POLL_PARTS);
}

/** How `executions.wait()` polls. */
export interface WaitOptions<Record = ExecutionRecordAnswer> {
  /**
   * Milliseconds between the first two polls (default 500); each later interval is 1.5 times the one before,
   * up to `maxInterval`. An interval the record's answer suggests (`retry-after-ms`, else `Retry-After`) replaces
   * the one it follows.
   */
  interval?: number | undefined;
  /** The longest interval the backoff grows to, in milliseconds (default 5000). */
  maxInterval?: number | undefined;
  /**
   * Milliseconds the whole wait may last (default 600000, 10 minutes; `Infinity` waits as long as it takes).
   * When it passes, the wait throws `OzWaitTimeoutError` at once, even mid-request; the run goes on.
   */
  timeout?: number | undefined;
  /** Stops the wait at once, also mid-request or between polls, with `OzAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Called with every record read, the last (finished) one included; the wait waits for a promise it returns,
   * and fails with what it throws.
   */
  onProgress?: ((record: Record) => unknown) | undefined;
}

/**
 * The options of each poll's request (the key, base address, `fetch`, headers, retries and the timeout of one
 * attempt). The wait's own `signal` and `timeout` bound the polls; they always read the json wire.
 */
export type PollRequestOptions = Omit<RequestOptions, 'signal' | 'format' | 'bodyFormat' | 'idempotencyKey' | 'idleTimeout' | 'retainStreamText'>;

/** The execution result envelope a succeeded wait answers, as a synchronous execute call does on json. */
export interface ExecutionResultAnswer {
  ok: boolean;
  /** The run's content (markdown). */
  content: string;
  execution_id: string;
  /** The `x-request-id` of the poll that read the finished record. */
  request_id: string;
}

/**
 * What names an execution: its id, or any object with an `execution_id` (an async pointer as the SDK returns it,
 * or one read back from JSON, YAML or the pointer lines of markdown and text; an execution result envelope).
 */
export type ExecutionRef = string | { readonly execution_id: string };

/** The id an {@link ExecutionRef} names. */
export function executionIdOf(ref: ExecutionRef): string {
  const id = typeof ref === 'string' ? ref : (ref as { execution_id?: unknown } | null | undefined)?.execution_id;
  if (typeof id !== 'string' || id.trim() === '') {
    throw new OzUsageError('wait() needs an execution id, or an object with an `execution_id` (an async pointer).');
  }
  return id;
}

/**
 * Polls `GET /v1/executions/{id}` until the run finishes: at once, then after `interval` growing 1.5 times per
 * poll up to `maxInterval`, or after the interval the record's answer suggests (`retry-after-ms`, else
 * `Retry-After`; at least 50 ms, at most 60 s). Each poll is an ordinary call (retried on connection errors, 429
 * and 5xx).
 *
 * @returns The execution result envelope on `succeeded`.
 * @throws The typed error of the run's `error` on `failed` (the class of its code, for example
 * `InvalidParamsError`), `ExecutionCancelledError` (409) on `cancelled`, `OzWaitTimeoutError` when `timeout`
 * passes, `OzAbortError` when `signal` aborts, and any error of a poll.
 */
export function waitForExecution<Record extends ExecutionRecordAnswer = ExecutionRecordAnswer, E = OzError>(
  transport: ExecutionReader,
  ref: ExecutionRef,
  options: WaitOptions<Record> = {},
  requestOptions: PollRequestOptions = {},
): APIPromise<ExecutionResultAnswer, E> {
  return new APIPromise((pollLoop ??= import('./pollLoop.js')).then((loop) => loop.waitParsed(transport, ref, options, requestOptions, POLL_PARTS)));
}

/**
 * A `wait()` as pointers returned by execute calls carry it (not enumerable: not in JSON or `toEqual`); `E` is
 * what it can fail with (its `result()` error type).
 */
export type PointerWait<E = OzError> = (options?: WaitOptions) => APIPromise<ExecutionResultAnswer, E>;

/** An async pointer returned by an execute call: the pointer's fields plus a non-enumerable `wait()`. */
export type Waitable<P, E = OzError> = P & { readonly wait: PointerWait<E> };

/**
 * Gives an async pointer returned by an execute call a non-enumerable `wait(options?)`, which polls its
 * execution with the call's key, base address, `fetch` and headers. It does not show in `JSON.stringify`,
 * `Object.keys`, spreads or `toEqual`; a pointer read back from storage has none: pass it to
 * `client.executions.wait(pointer)`.
 */
export function withPointerWait<P>(pointer: P, transport: ExecutionReader, callOptions: RequestOptions): P {
  if (typeof pointer !== 'object' || pointer === null) return pointer;
  const id = (pointer as { execution_id?: unknown }).execution_id;
  if (typeof id !== 'string' || id === '') return pointer;
  const { signal: _signal, format: _format, bodyFormat: _body, idempotencyKey: _key, idleTimeout: _idle, retainStreamText: _text, ...pollOptions } =
    callOptions;
  const wait: PointerWait = (options) => waitForExecution(transport, id, options, pollOptions);
  Object.defineProperty(pointer, 'wait', { value: wait, enumerable: false, writable: true, configurable: true });
  return pointer;
}

// The loop and the wait are a chunk loaded on the first wait or poll (`pollLoop.ts`): a program that never waits
// on a run carries neither. What they use of the core comes in `POLL_PARTS`, so that the chunk shares no module
// with the client's.
let pollLoop: Promise<typeof import('./pollLoop.js')> | undefined;
const POLL_PARTS: PollParts = {
  abortableSleep,
  abortError,
  AttemptSignal,
  OzAbortError,
  OzUsageError,
  OzWaitTimeoutError,
  recordFailure,
  isUnfinished,
  nextPollDelay,
  executionIdOf,
  defaults: { timeout: DEFAULT_WAIT_TIMEOUT_MS, interval: DEFAULT_POLL_INTERVAL_MS, maxInterval: DEFAULT_MAX_POLL_INTERVAL_MS },
};
