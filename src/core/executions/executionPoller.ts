import { abortError } from '../abortError.js';
import { abortableSleep } from '../retry/abortableSleep.js';
import { APIPromise } from '../result/apiPromise.js';

import { AttemptSignal } from '../attempt/attemptSignal.js';
import { OzAbortError, OzUsageError, type OzError } from '../errors/errors.js';
import { isUnfinished, recordFailure, type ExecutionRecordAnswer } from './executionRecovery.js';
import type {
  ExecutionPoll,
  ExecutionReader,
  ExecutionRef,
  ExecutionResultAnswer,
  PollHooks,
  PollParts,
  PollRequestOptions,
  PollSchedule,
  WaitOptions,
} from './pollTypes.js';
import type { RequestOptions } from '../options/requestOptions.js';
import { RETRY_AFTER_CAP_MS } from '../retry/retryDefaults.js';
import { retryAfterMs } from '../retry/retryPolicy.js';
import { OzWaitTimeoutError } from './waitTimeoutError.js';
import { pollExecution as pollLoop, waitParsed } from './pollLoop.js';

// The poller's types are in pollTypes.ts (shared with pollLoop.ts without an import circle).
export type { ExecutionPoll, ExecutionReader, ExecutionRef, ExecutionResultAnswer, PollHooks, PollRequestOptions, PollSchedule, WaitOptions } from './pollTypes.js';

/** The first interval between two polls, by default. */
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** The longest interval the backoff grows to, by default. */
export const DEFAULT_MAX_POLL_INTERVAL_MS = 5_000;
/** How long a wait lasts at most, by default (10 minutes, like one attempt of a synchronous call). */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/** The shortest wait an answer can ask for between two polls: a `Retry-After: 0` must not become a busy loop. */
export const MIN_POLL_MS = 50;

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
  return await pollLoop(read, schedule, hooks, POLL_PARTS);
}

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
  return new APIPromise(waitParsed(transport, ref, options, requestOptions, POLL_PARTS));
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
