import type { Operation } from '../core/shared/operation.js';
import { encodedPathParameter } from '../core/request/pathSegment.js';
import { usageError } from '../core/shared/usageProblem.js';
import type { OPERATIONS } from '../generated/operations.js';

// Each `METHOD path-template` of openapi.json, to its operation: built on the first raw call.
let byRoute: Map<string, Operation> | undefined;

/**
 * Checks the path parameters of a raw call (`raw.POST('/v1/tools/{tool}/execute', { params: { path } })`) with
 * the guard of the resource methods, before openapi-fetch puts them in the URL: a `.` or `..` segment (the URL
 * would resolve it to another route, with the key) or a lone surrogate is the caller's `OzUsageError`. A path no
 * operation has is left to the raw call, which refuses it.
 *
 * @returns The usage error, or undefined when the parameters may be sent.
 */
export function rawPathProblem(operations: typeof OPERATIONS, method: string, path: unknown, init: unknown): unknown {
  if (typeof path !== 'string') return undefined;
  byRoute ??= new Map(Object.values(operations as Record<string, Operation>).map((op) => [`${op.method} ${op.path}`, op]));
  const op = byRoute.get(`${method.toUpperCase()} ${path}`);
  const given = (init as { params?: { path?: Record<string, unknown> } } | undefined)?.params?.path;
  if (op === undefined || given === undefined || given === null) return undefined;
  try {
    // The given parameters the template names: the template itself is compiled only in the route table.
    for (const [name, value] of Object.entries(given)) {
      if (value !== undefined && value !== null && path.includes(`{${name}}`))
        encodedPathParameter(op, name, String(value), op.slashParams?.includes(name) ?? false);
    }
    return undefined;
  } catch (problem) {
    return usageError(problem);
  }
}
