import { type ErrorBody } from '../errors/errors.js';
import { apiErrorFor, statusForCode, type OzAPIError } from '../errors/apiErrors.js';

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
