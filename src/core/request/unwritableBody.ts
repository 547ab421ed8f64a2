import { OzUsageError } from '../errors/errors.js';

/**
 * The caller's {@link OzUsageError} for a body its wire's writer refused (`cause`, kept as the error's `cause`):
 * the message says what in the body no writer can take (a cycle, a `BigInt`, a getter or `toJSON()` that threw)
 * and where, found by walking the body only once the writer has failed. `whose`: whose body it is (an operation's
 * id, or the raw client's request).
 */
export function unwritableBody(whose: string, body: unknown, wire: 'JSON' | 'YAML', cause: unknown): OzUsageError {
  let problem: string | undefined;
  try {
    problem = problemIn(body, 'body', new Set());
  } catch {
    // Nested past the stack: the writer's own error says so.
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new OzUsageError(`The body of ${whose} cannot be written as ${wire}: ${problem ?? reason}. Nothing was sent.`, { cause });
}

/** The first thing in `value` no JSON writer can take, with its path, or undefined. `ancestors`: the objects above it. */
function problemIn(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  if (typeof value === 'bigint') return `${path} is a BigInt (send it as a string or a number)`;
  if (typeof value !== 'object' || value === null) return undefined;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    let written: unknown;
    try {
      written = toJSON.call(value, path);
    } catch (error) {
      return `${path}.toJSON() threw: ${messageOf(error)}`;
    }
    return written === value ? undefined : problemIn(written, path, ancestors);
  }
  if (ancestors.has(value)) return `${path} refers back to an object that holds it (a cycle)`;
  ancestors.add(value);
  for (const key of Object.keys(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    let item: unknown;
    try {
      item = (value as Record<string, unknown>)[key];
    } catch (error) {
      return `the getter of ${at} threw: ${messageOf(error)}`;
    }
    const problem = problemIn(item, at, ancestors);
    if (problem !== undefined) return problem;
  }
  ancestors.delete(value);
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
