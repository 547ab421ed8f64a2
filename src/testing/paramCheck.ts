import { invalidParams } from './errors.js';

const TYPE_CHECKS: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

/** 422 `invalid_params` listing the absent ones among `names` (`null` counts as absent), if any. */
export function requireFields(body: Readonly<Record<string, unknown>>, names: readonly string[]): void {
  let missing: string[] | undefined;
  for (const name of names) if (body[name] === undefined || body[name] === null) (missing ??= []).push(name);
  if (missing) throw invalidParams(`Missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`, missing);
}

/** A compiled card validation: throws 422 `invalid_params` for the first problem of an input. */
export type ParamCheck = (params: Record<string, unknown>) => void;

/**
 * Compiles card validation of a tool's or agent's input once: absent required fields answer 422
 * `invalid_params` with `missing`; a field whose `properties` entry names a `type` it does not have answers
 * 422 naming it.
 */
export function compileParamCheck(schema: Readonly<Record<string, unknown>>, required: readonly string[]): ParamCheck {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const typed: Array<[string, string, (v: unknown) => boolean]> = [];
  for (const [name, prop] of Object.entries(properties)) {
    const check = typeof prop?.type === 'string' ? TYPE_CHECKS[prop.type] : undefined;
    if (check) typed.push([name, prop.type as string, check]);
  }
  return (params) => {
    requireFields(params, required);
    for (const [name, type, check] of typed) {
      const value = params[name];
      if (value !== undefined && !check(value)) throw invalidParams(`Field ${name} must be ${type === 'integer' ? 'an' : 'a'} ${type}.`);
    }
  };
}

/** Whether a value is a plain object (a JSON object, not an array or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
