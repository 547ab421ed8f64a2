/**
 * Whether `actual` holds `expected`: an object holds every field of the expected object (recursively), a list
 * equals the expected list item by item (each item a subset), anything else is equal. Journal and stub matches
 * on a body use it: `{ "user": { "id": 7 } }` matches a body with more fields.
 */
export function jsonSubset(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => jsonSubset(actual[i], item));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  const object = actual as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(object, key) && jsonSubset(object[key], value));
}
