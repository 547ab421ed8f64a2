import { OzMockError } from './errors.js';

/**
 * How deep a document a caller gives may nest objects and arrays (the contract: a request body, fixture, stub
 * or state document nested deeper answers 400 `invalid_json`). Whatever walks a stored value (validation,
 * `structuredClone`, `JSON.stringify` of the state) recurses once per level: a bound keeps them all far from the
 * stack's end. Jackson (so WireMock) stops at 1,000.
 */
export const MAX_NESTING = 128;

/** 400 `invalid_json`: `what` nests deeper than `limit` levels. */
export function nestingError(what: string, limit: number = MAX_NESTING): OzMockError {
  return new OzMockError(400, 'invalid_json', `${what} is nested deeper than ${limit} levels of objects and arrays; at most ${limit} are accepted.`);
}

/**
 * Throws {@link nestingError} when `value` holds objects or arrays more than `limit` levels inside each other.
 * Walks with its own stack (never recursing) and stops at the first level past the bound, so a cycle ends too.
 */
export function checkNesting(value: unknown, what: string, limit: number = MAX_NESTING): void {
  const stack: Array<{ readonly node: object; readonly depth: number }> = [];
  if (typeof value === 'object' && value !== null) stack.push({ node: value, depth: 1 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > limit) throw nestingError(what, limit);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child as object, depth: depth + 1 });
    }
  }
}
