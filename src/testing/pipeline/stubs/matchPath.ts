import { invalidParams } from '../../contract/errors.js';
import type { OperationInfo } from '../../contract/operations.js';

/** The path parameters of an operation, in the order its path template names them. */
export function pathParameterNames(op: OperationInfo): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * Refuses a stub's `match.path` naming a parameter its operation lacks (it could never match): 422
 * `invalid_params` naming the parameter and the operation's own.
 */
export function checkMatchPath(path: Readonly<Record<string, string>> | undefined, op: OperationInfo): void {
  if (path === undefined) return;
  const known = pathParameterNames(op);
  for (const name of Object.keys(path)) {
    if (known.includes(name)) continue;
    const has = known.length === 0 ? 'it has no path parameters' : `its path parameters: ${known.join(', ')}`;
    throw invalidParams(`match.path.${name}: ${op.id} (${op.method} ${op.path}) has no path parameter ${name} (${has}).`, [`match.path.${name}`]);
  }
}
