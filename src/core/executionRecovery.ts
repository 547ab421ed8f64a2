import type { AsyncPointerAnswer } from './asyncPointer.js';
import { apiErrorFor, statusForCode, type ErrorBody, type OzAPIError } from './errors.js';
import type { Format } from './requestOptions.js';

/** The fields of an execution record the recovery reads. */
export interface ExecutionRecordAnswer {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  content: string | null;
  error: ErrorBody | null;
  workflow_id: string | null;
  task_id: string | null;
}

/** The record has not finished yet. */
export function isUnfinished(record: ExecutionRecordAnswer): boolean {
  return record.status === 'queued' || record.status === 'running';
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
 * The error a finished record stands for: the typed error of its `error` (the class of its code, with the
 * code's usual status); a cancelled record is 409 `execution_cancelled`, as the service answers it. Undefined for
 * a succeeded record.
 */
export function recordFailure(record: ExecutionRecordAnswer, requestId: string | null): OzAPIError | undefined {
  if (record.status !== 'failed' && record.status !== 'cancelled') return undefined;
  const error: ErrorBody =
    record.status === 'cancelled'
      ? { code: 'execution_cancelled', message: `Execution ${record.id} was cancelled before it finished.` }
      : (record.error ?? { code: 'internal_error', message: 'The execution failed without an error record.' });
  const headers = new Headers({ 'x-error-code': error.code, 'x-execution-id': record.id });
  if (requestId) headers.set('x-request-id', requestId);
  return apiErrorFor(statusForCode(error.code), headers, { ...error, execution_id: error.execution_id ?? record.id });
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
