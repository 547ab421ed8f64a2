import { invalidParams } from './errors.js';

const TYPE_CHECKS: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

/**
 * Card validation of a tool's or agent's input: absent required fields answer 422 `invalid_params` with
 * `missing`; a field whose `properties` entry names a `type` it does not have answers 422 naming it.
 */
export function checkParams(schema: Readonly<Record<string, unknown>>, required: readonly string[], params: Record<string, unknown>): void {
  const missing = required.filter((name) => params[name] === undefined || params[name] === null);
  if (missing.length) throw invalidParams(`Missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`, missing);
  const properties = schema.properties as Record<string, { type?: unknown }> | undefined;
  if (!properties) return;
  for (const [name, prop] of Object.entries(properties)) {
    const value = params[name];
    if (value === undefined || typeof prop?.type !== 'string') continue;
    const check = TYPE_CHECKS[prop.type];
    if (check && !check(value)) throw invalidParams(`Field ${name} must be ${prop.type === 'integer' ? 'an' : 'a'} ${prop.type}.`);
  }
}

/** Whether a value is a plain object (a JSON object, not an array or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
