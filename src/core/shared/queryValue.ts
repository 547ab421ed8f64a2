import { UsageProblem } from './usageProblem.js';

/** A value a query parameter may take: a string, a finite number, a boolean, or an array of those (sent repeated). */

/**
 * Sets one query parameter on `params` (over any earlier value of the same name): an array as the parameter
 * repeated (`tag=a&tag=b`, OpenAPI's default `form` style), `undefined` and `null` left out. Any other value (an
 * object, a nested array, a `Symbol`, a function, a `BigInt`, `NaN` or an infinity) has no one spelling in a URL:
 * the caller's mistake, a {@link UsageProblem} naming the parameter and where it came from (`source`).
 */
export function setQueryValue(params: URLSearchParams, name: string, value: unknown, source: string): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    params.set(name, queryText(value, name, source));
    return;
  }
  const texts = value.map((item: unknown) => queryText(item, name, source));
  params.delete(name);
  for (const text of texts) params.append(name, text);
}

function queryText(value: unknown, name: string, source: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  throw new UsageProblem('queryValue', name, source, kindOf(value));
}

/** What a refused value is, for the message (never the value itself: it may hold anything). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array inside an array';
  if (value === null || value === undefined) return `${String(value)} inside an array`;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value === 'symbol') return 'a Symbol';
  if (typeof value === 'function') return 'a function';
  return `an object (${Object.prototype.toString.call(value)})`;
}
