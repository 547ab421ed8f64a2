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
 * Walks with its own stack (never recursing), once per object however often it is shared (a fixture's YAML
 * aliases make a graph whose expansion could be huge), and counts a cycle as too deep.
 */
export function checkNesting(value: unknown, what: string, limit: number = MAX_NESTING): void {
  if (levelsExceed(value, limit)) throw nestingError(what, limit);
}

interface Visit {
  readonly node: object;
  readonly depth: number;
  children: object[] | null;
}

function levelsExceed(root: unknown, limit: number): boolean {
  if (typeof root !== 'object' || root === null) return false;
  // How many levels each finished object holds (itself included), and the objects on the path being walked.
  const height = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: Visit[] = [{ node: root, depth: 1, children: null }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.children === null) {
      if (top.depth > limit || onPath.has(top.node)) return true;
      onPath.add(top.node);
      const values: unknown[] = Array.isArray(top.node) ? top.node : Object.values(top.node);
      top.children = values.filter((v): v is object => typeof v === 'object' && v !== null);
      for (const child of top.children) if (!height.has(child)) stack.push({ node: child, depth: top.depth + 1, children: null });
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    if (height.has(top.node)) continue;
    let levels = 1;
    for (const child of top.children) levels = Math.max(levels, 1 + (height.get(child) ?? 0));
    if (top.depth - 1 + levels > limit) return true;
    height.set(top.node, levels);
  }
  return false;
}
