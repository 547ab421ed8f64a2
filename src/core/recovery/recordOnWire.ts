import type { AsyncPointerAnswer } from '../executions/asyncPointer.js';
import type { ExecutionRecordAnswer } from '../shared/pollTypes.js';
import type { Format } from '../shared/requestOptions.js';

// A finished run's record as the answer its lost call would have had: the pointer, the result on the caller's
// wire, or the events of a stream.

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
