import { abortableSleep, abortError } from './abortableSleep.js';
import { AttemptSignal } from './attemptSignal.js';
import { OzAbortError, OzUsageError } from './errors.js';
import { EXECUTION_RECORD, isUnfinished, recordFailure, type ExecutionRecordAnswer } from './executionRecovery.js';
import type { RequestOptions } from './requestOptions.js';
import { retryAfterMs, RETRY_AFTER_CAP_MS } from './retryPolicy.js';
import type { Transport } from './transport.js';
import { OzWaitTimeoutError } from './waitTimeoutError.js';

/** The first interval between two polls, by default. */
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** The longest interval the backoff grows to, by default. */
export const DEFAULT_MAX_POLL_INTERVAL_MS = 5_000;
/** How long a wait lasts at most, by default (10 minutes, like one attempt of a synchronous call). */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

// Each interval is this much longer than the one before, up to `maxInterval`.
const BACKOFF_FACTOR = 1.5;
// A `Retry-After: 0` must not turn the wait into a busy loop.
const MIN_POLL_MS = 50;

/** How `executions.wait()` polls. */
export interface WaitOptions<Record = ExecutionRecordAnswer> {
  /**
   * Milliseconds between the first two polls (default 500); each later interval is 1.5 times the one before,
   * up to `maxInterval`. A `Retry-After` on the record's answer replaces the interval it follows.
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
 * poll up to `maxInterval`, or after the `Retry-After` the record's answer asks for (at most 60 s). Each poll is
 * an ordinary call (retried on connection errors, 429 and 5xx).
 *
 * @returns The execution result envelope on `succeeded`.
 * @throws The typed error of the run's `error` on `failed` (the class of its code, for example
 * `InvalidParamsError`), `ExecutionCancelledError` (409) on `cancelled`, `OzWaitTimeoutError` when `timeout`
 * passes, `OzAbortError` when `signal` aborts, and any error of a poll.
 */
export async function waitForExecution<Record extends ExecutionRecordAnswer = ExecutionRecordAnswer>(
  transport: Transport,
  ref: ExecutionRef,
  options: WaitOptions<Record> = {},
  requestOptions: PollRequestOptions = {},
): Promise<ExecutionResultAnswer> {
  const id = executionIdOf(ref);
  const timeout = options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  let interval = options.interval ?? DEFAULT_POLL_INTERVAL_MS;
  const maxInterval = Math.max(options.maxInterval ?? DEFAULT_MAX_POLL_INTERVAL_MS, interval);
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
    for (;;) {
      const { data: record, response, requestId } = await transport
        .request<Record>(EXECUTION_RECORD, { path: { id } }, pollOptions)
        .withResponse();
      lastStatus = record.status;
      await options.onProgress?.(record);
      if (!isUnfinished(record)) {
        const failure = recordFailure(record, requestId);
        if (failure) throw failure;
        return { ok: true, content: record.content ?? '', execution_id: record.id, request_id: requestId ?? '' };
      }
      const asked = retryAfterMs(response.headers);
      const wait = asked === undefined ? interval : Math.min(Math.max(asked, MIN_POLL_MS), RETRY_AFTER_CAP_MS);
      interval = Math.min(interval * BACKOFF_FACTOR, maxInterval);
      await abortableSleep(wait, scope.signal);
    }
  } catch (error) {
    if (error instanceof OzAbortError && scope.signal.aborted && !caller?.aborted) {
      throw new OzWaitTimeoutError(id, timeout, lastStatus, { cause: error });
    }
    throw error;
  } finally {
    scope.release();
  }
}

/** A `wait()` as pointers returned by execute calls carry it (not enumerable: not in JSON or `toEqual`). */
export type PointerWait = (options?: WaitOptions) => Promise<ExecutionResultAnswer>;

/** An async pointer returned by an execute call: the pointer's fields plus a non-enumerable `wait()`. */
export type Waitable<P> = P & { readonly wait: PointerWait };

/**
 * Gives an async pointer returned by an execute call a non-enumerable `wait(options?)`, which polls its
 * execution with the call's key, base address, `fetch` and headers. It does not show in `JSON.stringify`,
 * `Object.keys`, spreads or `toEqual`; a pointer read back from storage has none: pass it to
 * `client.executions.wait(pointer)`.
 */
export function withPointerWait<P>(pointer: P, transport: Transport, callOptions: RequestOptions): P {
  if (typeof pointer !== 'object' || pointer === null) return pointer;
  const id = (pointer as { execution_id?: unknown }).execution_id;
  if (typeof id !== 'string' || id === '') return pointer;
  const { signal: _signal, format: _format, bodyFormat: _body, idempotencyKey: _key, idleTimeout: _idle, retainStreamText: _text, ...pollOptions } =
    callOptions;
  const wait: PointerWait = (options) => waitForExecution(transport, id, options, pollOptions);
  Object.defineProperty(pointer, 'wait', { value: wait, enumerable: false, writable: true, configurable: true });
  return pointer;
}
