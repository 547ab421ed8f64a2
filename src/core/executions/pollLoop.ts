import type { ParsedResponse } from '../result/answerTypes.js';
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
import type { ExecutionRecordAnswer } from './executionRecovery.js';
import type { RequestOptions } from '../options/requestOptions.js';

// The execution poller's loop and `executions.wait()`'s body, loaded on the first wait or poll (see
// executionPoller.ts, which declares the port and the options). It imports no value of the core (what it uses comes in `PollParts`), so that it stays one chunk of its own.

// Each interval is this much longer than the one before, up to `maxInterval`.
const BACKOFF_FACTOR = 1.5;

/** The loop of `pollExecution` (executionPoller.ts). */
export async function pollExecution<Record extends ExecutionRecordAnswer>(
  read: () => Promise<ExecutionPoll<Record>>,
  schedule: PollSchedule,
  hooks: PollHooks<Record>,
  parts: PollParts,
): Promise<ExecutionPoll<Record>> {
  const { isUnfinished, nextPollDelay, abortableSleep } = parts;
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

/** The wait of `waitForExecution`, with the answer of the poll that read the finished record. */
export async function waitParsed<Record extends ExecutionRecordAnswer>(
  transport: ExecutionReader,
  ref: ExecutionRef,
  options: WaitOptions<Record>,
  requestOptions: PollRequestOptions,
  parts: PollParts,
): Promise<ParsedResponse<ExecutionResultAnswer>> {
  const { abortError, AttemptSignal, OzAbortError, OzUsageError, OzWaitTimeoutError, recordFailure, executionIdOf } = parts;
  const id = executionIdOf(ref);
  const timeout = options.timeout ?? parts.defaults.timeout;
  const interval = options.interval ?? parts.defaults.interval;
  const maxInterval = options.maxInterval ?? parts.defaults.maxInterval;
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
    const { record: finished, requestId, response } = await pollExecution(read, { interval, maxInterval }, { signal: scope.signal, onRecord, sleep: transport.sleep?.bind(transport) }, parts);
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

