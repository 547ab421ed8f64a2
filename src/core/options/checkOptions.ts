import { OzUsageError } from '../errors/errors.js';
import { OPTION_TABLE, type OptionName, type OptionRow } from './optionTable.js';

// The one checker of the options of `options/optionTable.ts`: what a client and a call are given, each option by
// its row, before anything is sent. A wrong type or value is an `OzUsageError` naming the option, what it takes
// and what came. It builds no message unless an option is wrong, and looks only at the options given.

const ROWS: Readonly<Record<string, OptionRow>> = OPTION_TABLE;

/**
 * Checks the options given to a client (`place` `client`: `new Oz`, `OzCore`, `withOptions()`) or to a call (`call`),
 * each by its row of the table. Names the table does not know, or knows only for the other place, are left as
 * they were before the table (unread); so are those of `skip` (`mcpURL`, which an `OzCore` does not take).
 */
export function checkOptions(options: unknown, place: 'client' | 'call', skip?: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new OzUsageError(`The options ${place === 'client' ? 'of a client' : 'of a call'} must be an object, not ${whatCame(options)}.`);
  }
  for (const name in options) {
    const row = Object.hasOwn(ROWS, name) ? ROWS[name] : undefined;
    if (row === undefined || row.where === (place === 'client' ? 'call' : 'client') || name === skip) continue;
    const value: unknown = (options as Record<string, unknown>)[name];
    if (value !== undefined) checkValue(row, value, name);
  }
}

/**
 * Checks one option's value by its row of the table, the message naming `label` (the flag of `oz` that set it,
 * `--timeout`); answers the value.
 */
export function checkOption<V>(name: OptionName, value: V, label: string = name): V {
  checkValue(OPTION_TABLE[name], value, label);
  return value;
}

function checkValue(row: OptionRow, value: unknown, label: string): void {
  if (!takes(row, value)) throw new OzUsageError(`${label} must be ${takesText(row)}, not ${whatCame(value, typeOf(row))}.`);
  if (row.kind === 'string') row.refine?.(value as string, label);
  else if (row.kind === 'fields') {
    const fields = row.fields!;
    for (const field in value as object) {
      const inner = Object.hasOwn(fields, field) ? fields[field] : undefined;
      const given: unknown = (value as Record<string, unknown>)[field];
      if (inner !== undefined && given !== undefined) checkValue(inner, given, `${label}.${field}`);
    }
  }
}

/** Whether `value` is of the row's kind (and, for a number or a value of a set, within it). */
function takes(row: OptionRow, value: unknown): boolean {
  switch (row.kind) {
    case 'string':
      return typeof value === 'string';
    case 'key':
      return (typeof value === 'string' && value !== '') || typeof value === 'function';
    case 'enum':
      return typeof value === 'string' && row.values!.includes(value);
    case 'number':
      return typeof value === 'number' && inRange(value, row.range!);
    case 'boolean':
      return typeof value === 'boolean';
    case 'function':
      return typeof value === 'function';
    case 'functions':
      return Array.isArray(value) && value.every((item) => typeof item === 'function');
    case 'record':
    case 'fields':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'signal':
      return isObject(value) && typeof value.aborted === 'boolean' && typeof value.addEventListener === 'function';
    case 'logger':
      return isObject(value) && LOG_LEVELS.every((level) => typeof value[level] === 'function');
  }
}

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function inRange(value: number, range: NonNullable<OptionRow['range']>): boolean {
  if (value === Infinity) return range.infinite === true;
  if (range.whole && !Number.isInteger(value)) return false;
  if (range.above ? !(value > range.min) : !(value >= range.min)) return false;
  return range.max === undefined || value <= range.max;
}

function takesText(row: OptionRow): string {
  if (row.kind !== 'enum') return row.takes!;
  const quoted = row.values!.map((value) => `'${value}'`);
  return `one of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
}

/** The type whose values a row's message quotes bare (`not -1`); another type is said with its value (`not string ("3")`). */
function typeOf(row: OptionRow): 'number' | 'string' | undefined {
  return row.kind === 'number' ? 'number' : row.kind === 'string' || row.kind === 'key' || row.kind === 'enum' ? 'string' : undefined;
}

/**
 * What came, for a message: the value itself when it has the type the option takes (`-1`, `"loud"`), else its
 * type and value (`number (42)`, `null`, `a function`, `an array`). A long string is not quoted (it may be a key
 * given to the wrong option).
 */
function whatCame(value: unknown, type?: 'number' | 'string'): string {
  if (value === '') return 'an empty string';
  if (typeof value === 'string') {
    const quoted = value.length <= 24 ? JSON.stringify(value) : `a string of ${value.length} characters`;
    return type === 'string' || value.length > 24 ? quoted : `string (${quoted})`;
  }
  if (typeof value === 'number') return type === 'number' ? String(value) : `number (${String(value)})`;
  if (typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} (${String(value)})`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return 'an array';
  const maker = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof maker === 'string' && maker !== 'Object' && maker !== '' ? `an object (${maker})` : 'an object';
}
