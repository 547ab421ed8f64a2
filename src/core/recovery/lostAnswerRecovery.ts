import type { AsyncPointerAnswer } from '../executions/asyncPointer.js';
import type { ParsedResponse } from '../result/apiPromise.js';
import type { OzTimeoutError } from '../errors/errors.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import type { ExecutionPoll, PollSchedule, pollExecution } from '../executions/executionPoller.js';
import type { checkedRecord, ExecutionRecordAnswer, recordFailure } from '../executions/executionRecovery.js';
import type { Logger } from '../telemetry/logger.js';
import type { Format, RequestOptions } from '../options/requestOptions.js';

// Loaded on the first lost answer only (a retry of an execute call answered 409 `duplicate_execution_id`): no
// program that never loses an answer carries this code. It imports no value of the core (what it needs comes in
// `RecoveryParts`), so that it stays one chunk of its own shared with nothing the client loads up front.

/** The core's values the recovery uses, handed over by the transport. */
export interface RecoveryParts {
  readonly pollExecution: typeof pollExecution;
  readonly recordFailure: typeof recordFailure;
  readonly checkedRecord: typeof checkedRecord;
  /** A JSON answer's body, parsed. */
  readonly decode: (text: string, contentType: string | null) => Promise<unknown>;
  readonly OzTimeoutError: typeof OzTimeoutError;
}

/** What the recovery reads of the call whose answer was lost. */
export interface LostCall {
  readonly traceId: string;
  readonly asyncRun: boolean;
  readonly mode: 'parse' | 'stream';
  readonly format: Format;
  readonly timeout: number;
  readonly signal: AbortSignal | undefined;
  readonly options: RequestOptions;
  readonly log: Logger;
  readonly tag: string;
}

/** What the recovery does through the transport. */
export interface RecoveryPort {
  /** One read of the execution record (`GET /v1/executions/{id}`, json, through the call's retries). */
  readRecord(id: string): Promise<{ response: Response; text: string }>;
  /** Gives the pointer its `wait()`, as the call's own answer would have. */
  pointer(pointer: AsyncPointerAnswer): Promise<unknown>;
  /** The call's `Stream` over these events. */
  stream(events: Response): Promise<unknown>;
  /** A typed error about to be thrown: logged and scrubbed. */
  final(error: unknown): unknown;
  /** The first poll interval and its growth. */
  readonly schedule: PollSchedule;
}

/**
 * A retry answered 409 `duplicate_execution_id`: the first attempt did run and only its answer was lost. Reads
 * that execution through the execution poller, for at most one attempt's `timeout`, and answers its result on the
 * caller's wire (as server-sent events for a stream call; the pointer for an `async: true` call).
 */
export async function recoverLostAnswer(call: LostCall, conflict: OzAPIError, port: RecoveryPort, parts: RecoveryParts): Promise<ParsedResponse<unknown>> {
  const id = call.traceId;
  call.log.warn(`${call.tag} The answer was lost and the retry found execution ${id} already started; reading its result.`);
  const deadline = Date.now() + call.timeout;
  let recordText: string | undefined;
  const read = async (): Promise<ExecutionPoll> => {
    const { response, text } = await port.readRecord(id);
    recordText = text;
    const record = parts.checkedRecord(await parts.decode(text, response.headers.get('content-type')));
    return { record, response, requestId: response.headers.get('x-request-id') };
  };
  if (call.asyncRun) {
    const { record, response } = await read();
    return { data: await port.pointer(pointerOfRecord(record)), response };
  }
  const beforeWait = (wait: number, { record }: ExecutionPoll) => {
    if (Date.now() + wait <= deadline) return;
    throw port.final(
      new parts.OzTimeoutError(`Execution ${id} is still ${record.status} after ${call.timeout} ms; read it later with client.executions.get().`, {
        cause: conflict,
      }),
    );
  };
  const { record, response, requestId } = await parts.pollExecution(read, port.schedule, { signal: call.signal, beforeWait });
  if (call.mode === 'stream') {
    if (record.status === 'cancelled') throw port.final(parts.recordFailure(record, requestId));
    const events = new Response(recordAsEvents(record, requestId), {
      headers: { 'content-type': 'text/event-stream', 'x-execution-id': id, ...(requestId ? { 'x-request-id': requestId } : {}) },
    });
    return { data: await port.stream(events), response: events };
  }
  const failure = parts.recordFailure(record, requestId);
  if (failure) throw port.final(failure);
  // Its response is the execution record's answer (a late asResponse() hands over that record).
  return { data: resultOnWire(record, call.format, requestId), response, text: recordText };
}

/**
 * The async pointer of the first run, for an `async: true` call. A run that has already finished is reported as
 * `running` (the pointer's statuses are only `queued` and `running`): polling the pointer reads the outcome.
 */
export function pointerOfRecord(record: ExecutionRecordAnswer): AsyncPointerAnswer {
  return {
    workflow_id: record.workflow_id ?? null,
    execution_id: record.id,
    task_id: record.task_id ?? null,
    status: record.status === 'queued' ? 'queued' : 'running',
  };
}

/**
 * A succeeded record's result on the caller's wire: the ExecutionResult envelope on json and yaml, the content
 * then the `execution_id` footer on markdown, the bare content on text.
 */
export function resultOnWire(record: ExecutionRecordAnswer, format: Format, requestId: string | null): unknown {
  const content = record.content ?? '';
  if (format === 'text') return content;
  if (format === 'markdown') return `${content}\n\n---\nexecution_id: ${record.id}\n`;
  return { ok: true, content, execution_id: record.id, request_id: requestId ?? '' };
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The server-sent events a stream call would have closed with, for a finished record: the whole content as one
 * `token`, then `result`; or one `error` event for a failed run.
 */
export function recordAsEvents(record: ExecutionRecordAnswer, requestId: string | null): string {
  if (record.status === 'failed') {
    const error = record.error ?? { code: 'internal_error', message: 'The execution failed without an error record.' };
    return sse('error', { error: { ...error, execution_id: error.execution_id ?? record.id } });
  }
  const content = record.content ?? '';
  return sse('token', { delta: content }) + sse('result', resultOnWire(record, 'json', requestId));
}
