import type { ErrorBody } from '../errors/errorShape.js';
import type { RequestOptions } from './requestOptions.js';
import type { Operation, RequestInput } from './operation.js';

// The execution poller's types: its reader, options and answers (executionPoller.ts re-exports them), in a file of
// their own so that a call's shape (`Call`, shared/call.ts) names them without the poller.

/** The fields of an execution record the poller and the recovery of a lost answer read. */
export interface ExecutionRecordAnswer {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  content: string | null;
  error: ErrorBody | null;
  workflow_id: string | null;
  task_id: string | null;
}

/**
 * The poller's port: the few things it does through the client (the transport is one). It needs nothing else of
 * the transport, and so does not import it.
 */
export interface ExecutionReader {
  /** Sends one call (the record's read: `config.executionRecord` on the json wire), answering its data with its answer. */
  request<T>(
    op: Operation,
    input: RequestInput,
    options: RequestOptions,
  ): { withResponse(): Promise<{ data: T; response: Response; requestId: string | null }> };
  /** `GET /v1/executions/{id}`, as the generated operations table describes it. */
  readonly config: { readonly executionRecord: Operation };
  /** Waits `ms` between two polls (an abort of `signal` cuts it); by default a timer. */
  sleep?(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** The intervals between polls when the record's answer asks for none: `interval`, growing 1.5 times per poll. */
export interface PollSchedule {
  /** Milliseconds between the first two polls. */
  readonly interval: number;
  /** The longest interval the schedule grows to. */
  readonly maxInterval: number;
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
