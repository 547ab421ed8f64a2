import { invalidParams } from '../../contract/errors.js';
import type { OperationInfo } from '../../contract/operations.js';
import { ROUTE_BY_ID } from '../../../generated/routes.js';

/**
 * Refuses a stub's `match.path` naming a parameter its operation lacks (it could never match): 422
 * `invalid_params` naming the parameter and the operation's own.
 */
export function checkMatchPath(path: Readonly<Record<string, string>> | undefined, op: OperationInfo): void {
  if (path === undefined) return;
  const known = ROUTE_BY_ID[op.id].path.params;
  for (const name of Object.keys(path)) {
    if (known.includes(name)) continue;
    const has = known.length === 0 ? 'it has no path parameters' : `its path parameters: ${known.join(', ')}`;
    throw invalidParams(`match.path.${name}: ${op.id} (${op.method} ${op.path}) has no path parameter ${name} (${has}).`, [`match.path.${name}`]);
  }
}
