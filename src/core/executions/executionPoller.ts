import { abortError, OzAbortError, OzUsageError, type OzError } from '../errors/errors.js';
import { AttemptSignal } from '../shared/attemptSignal.js';
import type { RequestOptions } from '../shared/requestOptions.js';
import { APIPromise, type ParsedResponse } from '../result/apiPromise.js';
import { abortableSleep } from '../shared/abortableSleep.js';
import { RETRY_AFTER_CAP_MS, retryAfterMs } from '../shared/retryAfter.js';
import { isUnfinished, recordFailure } from './executionRecovery.js';
import type {
  ExecutionPoll,
  ExecutionRecordAnswer,
  ExecutionReader,
  ExecutionRef,
  ExecutionResultAnswer,
  PollHooks,
  PollRequestOptions,
  PollSchedule,
  WaitOptions,
} from '../shared/pollTypes.js';
import { OzWaitTimeoutError } from './waitTimeoutError.js';

// The poller's types are in shared/pollTypes.ts (the reader it polls through, `ExecutionReader`, is named there without the poller).
export type {
  ExecutionPoll,
  ExecutionReader,
  ExecutionRef,
  ExecutionResultAnswer,
  PollHooks,
  PollRequestOptions,
  PollSchedule,
  WaitOptions,
} from '../shared/pollTypes.js';

/** The first interval between two polls, by default. */
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** The longest interval the backoff grows to, by default. */
export const DEFAULT_MAX_POLL_INTERVAL_MS = 5_000;
/** How long a wait lasts at most, by default (10 minutes, like one attempt of a synchronous call). */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

// Each interval is this much longer than the one before, up to `maxInterval`.
const BACKOFF_FACTOR = 1.5;

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
  let interval = schedule.interval;
  const maxInterval = Math.max(schedule.maxInterval, interval);
  for (;;) {
    const poll = await read();
    // Checked before any hook reads a field: an answer that is not a record ends the loop with its OzError.
    const unfinished = isUnfinished(poll.record);
    await hooks.onRecord?.(poll.record);
    if (!unfinished) return poll;
    const wait = nextPollDelay(poll.response.headers, interval);
    interval = Math.min(interval * BACKOFF_FACTOR, maxInterval);
    hooks.beforeWait?.(wait, poll);
    await (hooks.sleep ?? abortableSleep)(wait, hooks.signal);
  }
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
  return new APIPromise(waitParsed(transport, ref, options, requestOptions));
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
  const {
    signal: _signal,
    format: _format,
    bodyFormat: _body,
    idempotencyKey: _key,
    idleTimeout: _idle,
    retainStreamText: _text,
    ...pollOptions
  } = callOptions;
  const wait: PointerWait = (options) => waitForExecution(transport, id, options, pollOptions);
  Object.defineProperty(pointer, 'wait', { value: wait, enumerable: false, writable: true, configurable: true });
  return pointer;
}

/** The wait of {@link waitForExecution}, with the answer of the poll that read the finished record. */
async function waitParsed<Record extends ExecutionRecordAnswer>(
  transport: ExecutionReader,
  ref: ExecutionRef,
  options: WaitOptions<Record>,
  requestOptions: PollRequestOptions,
): Promise<ParsedResponse<ExecutionResultAnswer>> {
  const id = executionIdOf(ref);
  const timeout = options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  const interval = options.interval ?? DEFAULT_POLL_INTERVAL_MS;
  const maxInterval = options.maxInterval ?? DEFAULT_MAX_POLL_INTERVAL_MS;
  if (!(timeout > 0)) throw new OzUsageError(`The wait's timeout must be a number of milliseconds > 0 (or Infinity), not ${timeout}.`);
  if (!(interval >= 0) || !Number.isFinite(interval)) throw new OzUsageError(`interval must be a number of milliseconds >= 0, not ${interval}.`);
  const caller = options.signal;
  if (caller?.aborted) throw abortError(caller);

  // Aborts at the caller's abort or at the wait's deadline; its one listener on the caller's signal is removed
  // when the wait ends.
  const scope = new AttemptSignal(caller, timeout);
  const pollOptions: RequestOptions = { ...requestOptions, signal: scope.signal, format: 'json' };
  let lastStatus: string | undefined;
  try {
    const read = async (): Promise<ExecutionPoll<Record>> => {
      const { data, response, requestId } = await transport.request<Record>(transport.config.executionRecord, { path: { id } }, pollOptions).withResponse();
      return { record: data, response, requestId };
    };
    const onRecord = (polled: Record) => {
      lastStatus = typeof polled.status === 'string' ? polled.status : undefined;
      return options.onProgress?.(polled);
    };
    const {
      record: finished,
      requestId,
      response,
    } = await pollExecution(read, { interval, maxInterval }, { signal: scope.signal, onRecord, sleep: transport.sleep?.bind(transport) });
    const failure = recordFailure(finished, requestId);
    if (failure) throw failure;
    const content = typeof finished.content === 'string' ? finished.content : '';
    return { data: { ok: true, content, execution_id: id, request_id: requestId ?? '' }, response };
  } catch (error) {
    if (error instanceof OzAbortError && scope.signal.aborted && !caller?.aborted) {
      throw new OzWaitTimeoutError(id, timeout, lastStatus, { cause: error });
    }
    throw error;
  } finally {
    scope.release();
  }
}
