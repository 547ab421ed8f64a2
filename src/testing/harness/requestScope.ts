import type { OperationId } from '../../generated/operations.js';
import { OPERATION_IDS } from '../contract/operations.js';

/** Which requests a fault or a journal filter names: every given field must match; none given matches all. */
export interface RequestScope {
  /** An operationId of openapi.json; an unknown one throws a `TypeError`. */
  readonly operationId?: OperationId;
  readonly method?: string;
  /** An exact path, or a pattern. */
  readonly path?: string | RegExp;
}

/** What a scope is matched against: a request as the journal records it. */
export interface ScopedRequest {
  readonly operationId: string | null;
  /** Upper case. */
  readonly method: string;
  readonly path: string;
}

/** Throws a `TypeError` when a scope's `operationId` names no operation of openapi.json. */
export function checkScopeOperationId(operationId: unknown): void {
  if (operationId !== undefined && !OPERATION_IDS.has(operationId as string))
    throw new TypeError(`operationId names no operation of openapi.json: ${String(operationId)}`);
}

/** Whether a request is in a scope. */
export function inScope(request: ScopedRequest, scope: RequestScope): boolean {
  if (scope.operationId !== undefined && request.operationId !== scope.operationId) return false;
  if (scope.method !== undefined && request.method !== scope.method.toUpperCase()) return false;
  if (scope.path !== undefined && (typeof scope.path === 'string' ? request.path !== scope.path : !scope.path.test(request.path))) return false;
  return true;
}
