import { OPERATION_ERROR_CODES } from '../../generated/operationErrors.js';
import type { OperationId } from '../../generated/operations.js';
import type { ErrorCode } from '../../generated/types.js';
import { OPENAPI_DOCUMENT, SERVER_OPERATIONS_BY_ID } from './operations.js';
import { PERMANENT_ERROR_CODES } from './permanentCodes.js';

/** An error an operation declares: its code and the status openapi.json gives the code. */
export interface DeclaredError {
  readonly code: ErrorCode;
  readonly status: number;
}

type CodeEntry = { readonly const: string; readonly 'x-oz-status': number };
type Responses = Readonly<Record<string, unknown>>;

/** Every `ErrorCode` of openapi.json with its status (`x-oz-status`). */
export const ERROR_CODE_STATUS: ReadonlyMap<string, number> = new Map(
  (OPENAPI_DOCUMENT as { components: { schemas: { ErrorCode: { oneOf: readonly CodeEntry[] } } } }).components.schemas.ErrorCode.oneOf.map((c) => [
    c.const,
    c['x-oz-status'],
  ]),
);

/** A status the client retries (its retry rules: 408, 429 and 500+). */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function declaredStatuses(id: OperationId): ReadonlySet<string> {
  const op = SERVER_OPERATIONS_BY_ID[id];
  const paths = (OPENAPI_DOCUMENT as { paths: Readonly<Record<string, Readonly<Record<string, { responses: Responses }>>>> }).paths;
  return new Set(Object.keys(paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {}));
}

const RETRYABLE: ReadonlyMap<string, readonly DeclaredError[]> = new Map(
  (Object.entries(OPERATION_ERROR_CODES) as Array<[OperationId, readonly ErrorCode[]]>).map(([id, codes]) => {
    const statuses = declaredStatuses(id);
    const errors = codes
      .map((code) => ({ code, status: ERROR_CODE_STATUS.get(code)! }))
      .filter((e) => retryableStatus(e.status) && statuses.has(String(e.status)) && !PERMANENT_ERROR_CODES.has(e.code));
    return [id, errors];
  }),
);

/**
 * The errors an operation declares in openapi.json (its error codes, `x-oz-error-codes` and the rules, whose
 * status is one of its responses) that a client retries: 408, 429 or 5xx, and not `x-oz-permanent`. What a chaos
 * rule's `"code": "declared"` picks among.
 */
export function retryableDeclaredErrors(id: string): readonly DeclaredError[] {
  return RETRYABLE.get(id) ?? [];
}
