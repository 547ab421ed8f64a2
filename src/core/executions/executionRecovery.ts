import type { ErrorBody } from '../errors/errorShape.js';
import type { ExecutionRecordAnswer } from '../shared/pollTypes.js';
import { apiErrorFor, statusForCode, type OzAPIError } from '../errors/apiErrors.js';
import { isJsonObject, unexpectedAnswer } from '../errors/unexpectedAnswer.js';

/**
 * An answer of the record route, checked to be an execution record (a JSON object); any other value (`[]`,
 * `null`, a string) is an `OzError` naming what came.
 */
export function checkedRecord(answer: unknown): ExecutionRecordAnswer {
  if (!isJsonObject(answer)) throw unexpectedAnswer('GET /v1/executions/{id}', 'an execution record', answer);
  return answer as unknown as ExecutionRecordAnswer;
}

/**
 * The record has not finished yet: its status is not `succeeded`, `failed` or `cancelled` (an unknown or missing
 * status is read as unfinished, so a wait keeps polling until its own timeout). Throws as {@link checkedRecord}
 * for an answer that is not a record.
 */
export function isUnfinished(record: ExecutionRecordAnswer): boolean {
  const { status } = checkedRecord(record);
  return status !== 'succeeded' && status !== 'failed' && status !== 'cancelled';
}

/**
 * The error a finished record stands for: the typed error of its `error` (the class of its code, with the
 * code's usual status); a cancelled record is 409 `execution_cancelled`, as the service answers it. Undefined for
 * a succeeded record.
 */
export function recordFailure(record: ExecutionRecordAnswer, requestId: string | null): OzAPIError | undefined {
  if (record.status !== 'failed' && record.status !== 'cancelled') return undefined;
  const given = record.error as unknown;
  const error: ErrorBody =
    record.status === 'cancelled'
      ? { code: 'execution_cancelled', message: `Execution ${record.id} was cancelled before it finished.` }
      : isJsonObject(given) && typeof given.code === 'string' && typeof given.message === 'string'
        ? (given as unknown as ErrorBody)
        : { code: 'internal_error', message: 'The execution failed without an error record.' };
  const headers = new Headers({ 'x-error-code': error.code, 'x-execution-id': record.id });
  if (requestId) headers.set('x-request-id', requestId);
  return apiErrorFor(statusForCode(error.code), headers, { ...error, execution_id: error.execution_id ?? record.id });
}
