import { findRoute } from '../../generated/routes.js';
import { SERVER_OPERATIONS_BY_ID, type OperationInfo } from '../contract/operations.js';

/** An operation of openapi.json a request names, with its path parameters. */
export interface MatchedOperation {
  readonly op: OperationInfo;
  readonly path: Readonly<Record<string, string>>;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The operation a method and path (without the query) name, or `null` (no operation of openapi.json). */
export function matchOperation(method: string, path: string): MatchedOperation | null {
  const matched = findRoute(method.toUpperCase(), path);
  if (matched === null) return null;
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(matched.params)) params[name] = decoded(raw);
  return { op: SERVER_OPERATIONS_BY_ID[matched.route.operationId], path: params };
}
