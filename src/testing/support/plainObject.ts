/** Whether a value is a plain object (a JSON object, not an array or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value a table or parsed document holds under a name, counting its own properties only. Every lookup of a
 * name that a request (or a document) gives goes through here: on a plain object, `constructor`, `toString` or
 * `__proto__` would otherwise find `Object.prototype`'s members.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
