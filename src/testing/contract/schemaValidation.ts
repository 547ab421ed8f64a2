import { OPENAPI_DOCUMENT } from './operations.js';

type Json = Record<string, unknown>;

/** What a failed validation says: one message, the absent fields, and the field it is about. */
export interface ValidationProblem {
  /** A sentence naming the field and what it must be. */
  readonly message: string;
  /** The absent required fields (paths such as `tasks[0].id` below the top level), when that is the problem. */
  readonly missing: readonly string[];
  /** The field the problem is about (`messages[0].role`), or `null` for the value itself. */
  readonly field: string | null;
}

/** A checked schema: `null` when the value is valid, else what is wrong with it. */
export type SchemaCheck = (value: unknown) => ValidationProblem | null;

/**
 * One error of a validator, in the shape of ajv's (`verbose`) error objects: what the generated validators
 * report, and what the run-time schema interpreter reports too, so both read the same way.
 */
export interface SchemaError {
  readonly keyword: string;
  /** A JSON pointer to the value (`/tasks/0/id`). */
  readonly instancePath: string;
  /** Where in the schema the keyword sits (`#/properties/tasks/items/oneOf/0/required`). */
  readonly schemaPath: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** The schema holding the keyword. */
  readonly parentSchema?: unknown;
  readonly message?: string;
}

/**
 * A validator written by `npm run generate` (ajv's standalone code: allErrors, verbose): true, or false with its
 * errors. Nothing is compiled at run time, so the server runs where `new Function` is refused (Workers).
 */
export interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/**
 * The check of a generated validator. `at` is where the value sits in the request (`params.arguments`), so that
 * messages name fields from the request's top.
 */
export function generatedCheck(validate: GeneratedValidator, at = ''): SchemaCheck {
  return (value) => (validate(value) ? null : describeErrors(validate.errors ?? [], at));
}

/** `/tasks/0/id` as `tasks[0].id` (below `at`, when given). */
function fieldName(instancePath: string, at = ''): string {
  let out = at;
  for (const part of instancePath.split('/').slice(1)) {
    const segment = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(segment) ? `[${segment}]` : out ? `.${segment}` : segment;
  }
  return out;
}

function child(parent: string, name: string): string {
  return parent ? `${parent}.${name}` : name;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

function range(min: unknown, max: unknown, unit: string): string {
  if (typeof min === 'number' && typeof max === 'number') return min === max ? `exactly ${min}${unit}` : `${min} to ${max}${unit}`;
  if (typeof max === 'number') return `at most ${max}${unit}`;
  return `at least ${String(min)}${unit}`;
}

function resolve(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const pointer = ref.slice(ref.indexOf('#') + 1);
  let node: unknown = OPENAPI_DOCUMENT;
  for (const part of pointer.split('/').slice(1)) node = (node as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof node === 'object' && node !== null ? { ...(node as Json), ...schema, $ref: undefined } : schema;
}

/** What a value of a schema is, in words: `a string of 1 to 300 characters`, `a non-empty list of strings`. */
export function describeSchema(raw: Json): string {
  const schema = resolve(raw);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
  const members = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (Array.isArray(members)) return orList(members.map(describeSchema));
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]) as string[];
  const primary = types.find((t) => t !== 'null');
  const nullable = types.includes('null') && primary !== undefined ? ' or null' : '';
  if (primary === 'string' && (schema.minLength !== undefined || schema.maxLength !== undefined)) {
    if (schema.minLength === 1 && schema.maxLength === undefined) return `a non-empty string${nullable}`;
    return `a string of ${range(schema.minLength, schema.maxLength, ' characters')}${nullable}`;
  }
  if ((primary === 'integer' || primary === 'number') && (schema.minimum !== undefined || schema.maximum !== undefined)) {
    const min = schema.minimum;
    const max = schema.maximum;
    const limits =
      typeof min === 'number' && typeof max === 'number'
        ? min === max
          ? `equal to ${min}`
          : `from ${min} to ${max}`
        : typeof min === 'number'
          ? `>= ${min}`
          : `<= ${String(max)}`;
    return `${TYPE_WORDS[primary]} ${limits}${nullable}`;
  }
  if (primary === 'array') {
    const items = typeof schema.items === 'object' && schema.items !== null ? /^an? (\w+)$/.exec(describeSchema(schema.items as Json)) : null;
    const of = items ? ` of ${items[1]}s` : '';
    if (schema.minItems === 1 && schema.maxItems === undefined) return `a non-empty list${of}${nullable}`;
    if (schema.minItems !== undefined || schema.maxItems !== undefined) return `a list${of} (${range(schema.minItems, schema.maxItems, ' items')})${nullable}`;
    return `a list${of}${nullable}`;
  }
  if (types.length) return orList(types.map((t) => TYPE_WORDS[t] ?? t));
  return 'a valid value';
}

/** The errors that matter: a member of `oneOf`/`anyOf` is judged by the composite's own error, not its parts. */
function relevant(errors: readonly SchemaError[]): SchemaError[] {
  return errors.filter((e) => !/\/(oneOf|anyOf)\/\d+\//.test(e.schemaPath));
}

/** The problem of absent required fields (named from the request's top). */
export function missingFields(missing: readonly string[]): ValidationProblem {
  return { message: `Missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`, missing, field: missing[0]! };
}

/** What a validator's errors say, as one problem: every absent field, else the first error that matters. */
export function describeErrors(all: readonly SchemaError[], at: string): ValidationProblem {
  const errors = relevant(all);
  const required = errors.filter((e) => e.keyword === 'required');
  if (required.length) return missingFields(required.map((e) => child(fieldName(e.instancePath, at), String(e.params.missingProperty))));
  const error = errors[0] ?? all[0]!;
  const field = fieldName(error.instancePath, at);
  const subject = field || 'The value';
  const parent = (error.parentSchema ?? {}) as Json;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = child(field, String(error.params.additionalProperty));
      return { message: `Unknown field: ${name}.`, missing: [], field: name };
    }
    case 'type':
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return { message: `${subject} must be ${describeSchema(parent)}.`, missing: [], field: field || null };
    case 'pattern':
      return { message: `${subject} must match the pattern ${String(parent.pattern)}.`, missing: [], field: field || null };
    default:
      return { message: `${subject} ${error.message ?? 'is not valid'}.`, missing: [], field: field || null };
  }
}
