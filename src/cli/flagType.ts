import type { CliFlag, CliFlagSchema } from '../generated/cli.js';
import { CliUsageError } from './cliUsageError.js';
import { kebabCase } from './flagNames.js';

/** How a flag's value is read: one of the scalar types, one of an enum's values, JSON, or JSON-else-text. */
export type FlagType =
  { readonly kind: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'any' } | { readonly kind: 'enum'; readonly values: readonly string[] };

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** The flag type of a field's schema (a generated field's, or a property of a card's `input_schema`). */
export function flagTypeOf(schema: CliFlagSchema): FlagType {
  if (Array.isArray(schema.enum)) return { kind: 'enum', values: schema.enum.filter((v) => v !== null).map(String) };
  const types = (typeof schema.type === 'string' ? [schema.type] : (schema.type ?? [])).filter((t) => t !== 'null');
  if (types.length === 1 && SCALARS.has(types[0]!)) return { kind: types[0] as 'string' | 'integer' | 'number' | 'boolean' };
  if (types.length === 0) return { kind: 'any' };
  return { kind: types.includes('string') ? 'any' : 'json' };
}

/** What `--help` shows of a flag's type. */
export function describeFlagType(type: FlagType): string {
  switch (type.kind) {
    case 'enum':
      return type.values.join('|');
    case 'json':
      return 'JSON';
    case 'any':
      return 'JSON or text';
    default:
      return type.kind;
  }
}

/** Reads a flag's value as its schema types it; a wrong value is a usage error naming the flag and the type. */
export function readFlagValue(flag: CliFlag, value: string): unknown {
  const type = flagTypeOf(flag.schema);
  const wrong = (expected: string): never => {
    throw new CliUsageError(`--${kebabCase(flag.name)} expects ${expected}, not ${JSON.stringify(value)}.`);
  };
  let read: unknown;
  switch (type.kind) {
    case 'string':
      return value;
    case 'integer':
      if (!/^-?\d+$/.test(value.trim())) wrong('an integer');
      read = Number(value);
      break;
    case 'number':
      if (value.trim() === '' || !Number.isFinite(Number(value))) wrong('a number');
      read = Number(value);
      break;
    case 'boolean':
      if (value !== 'true' && value !== 'false') wrong('a boolean (true or false)');
      return value === 'true';
    case 'enum':
      if (!type.values.includes(value)) wrong(`one of ${type.values.join(', ')}`);
      return value;
    case 'json':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return wrong('JSON (an object or an array)');
      }
    case 'any':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
  }
  const n = read as number;
  if (flag.schema.minimum !== undefined && n < flag.schema.minimum) wrong(`${type.kind === 'integer' ? 'an integer' : 'a number'} >= ${flag.schema.minimum}`);
  if (flag.schema.maximum !== undefined && n > flag.schema.maximum) wrong(`${type.kind === 'integer' ? 'an integer' : 'a number'} <= ${flag.schema.maximum}`);
  return n;
}
