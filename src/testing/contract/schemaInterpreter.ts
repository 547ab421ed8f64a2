import { dereference, validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { describeErrors, type SchemaCheck, type SchemaError } from './schemaValidation.js';

// Schemas that arrive at run time (the input schemas of tools and agents from addTool/addAgent and fixtures)
// cannot be generated ahead of time: @cfworker/json-schema interprets them (no `new Function`, so Workers run it),
// and its output is read into ajv's error shape, so their 422s read as those of the generated validators.

type Json = Record<string, unknown>;

const checks = new Map<string, SchemaCheck>();

/**
 * A run-time JSON Schema (2020-12) made a check, once per schema (by content) and `at`. Throws when the schema
 * cannot be used (a `$ref` that resolves to nothing, a pattern that is not a regular expression).
 */
export function interpretedCheck(schema: Readonly<Json>, at = ''): SchemaCheck {
  const key = `${at}\u0000${JSON.stringify(schema)}`;
  let check = checks.get(key);
  if (!check) {
    check = interpret(schema, at);
    checks.set(key, check);
  }
  return check;
}

function interpret(source: Readonly<Json>, at: string): SchemaCheck {
  // A copy: the interpreter writes its resolved references into the schema, and the card's schema is served as is.
  const schema = withoutFormats(structuredClone(source)) as Schema;
  const lookup = dereference(schema);
  checkUsable(schema, lookup);
  return (value) => {
    // An absent value is read as a JSON value that is no object (ajv's reading), so it fails on `type`.
    const result = validate(value === undefined ? null : value, schema, '2020-12', lookup, false);
    return result.valid ? null : describeErrors(toSchemaErrors(result.errors, value, schema, lookup), at);
  };
}

/** `format` is an annotation here, as for the generated validators (`validateFormats: false`). */
function withoutFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutFormats);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) if (!(key === 'format' && typeof value === 'string')) out[key] = withoutFormats(value);
  return out;
}

/** Every reference resolves and every pattern compiles, so a bad schema stops its definition, not a call. */
function checkUsable(node: unknown, lookup: Record<string, Schema | boolean>): void {
  if (Array.isArray(node)) return node.forEach((n) => checkUsable(n, lookup));
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema;
  if (typeof schema.$ref === 'string' && lookup[schema.__absolute_ref__ ?? schema.$ref] === undefined)
    throw new Error(`can't resolve reference ${schema.$ref}`);
  if (typeof schema.pattern === 'string') new RegExp(schema.pattern, 'u');
  for (const pattern of Object.keys((schema.patternProperties as Json | undefined) ?? {})) new RegExp(pattern, 'u');
  for (const value of Object.values(schema)) checkUsable(value, lookup);
}

/** `#/a~1b/0` as its decoded parts: `a/b`, `0`. */
function pointerParts(location: string): string[] {
  return location
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function instancePathOf(location: string): string {
  return pointerParts(location)
    .map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/** The schema node a keyword location points into (references followed), or undefined. */
function schemaAt(parts: readonly string[], root: Schema, lookup: Record<string, Schema | boolean>): unknown {
  let node: unknown = root;
  for (const part of parts) {
    if (typeof node !== 'object' || node === null) return undefined;
    const schema = node as Schema;
    node = part === '$ref' ? lookup[schema.__absolute_ref__ ?? schema.$ref ?? ''] : (node as Json)[part];
  }
  return node;
}

function valueAt(parts: readonly string[], value: unknown): unknown {
  let node = value;
  for (const part of parts) node = typeof node === 'object' && node !== null ? (node as Json)[part] : undefined;
  return node;
}

// Keywords that only say a part of them failed: the part's own errors follow them.
const WRAPPERS = new Set([
  '$ref',
  '$recursiveRef',
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'if',
]);

/** ajv's messages of the keywords the server's messages do not word themselves. */
const AJV_MESSAGES: Readonly<Record<string, (schema: Schema) => string>> = {
  multipleOf: (s) => `must be multiple of ${String(s.multipleOf)}`,
  exclusiveMinimum: (s) => `must be > ${String(s.exclusiveMinimum)}`,
  exclusiveMaximum: (s) => `must be < ${String(s.exclusiveMaximum)}`,
  minProperties: (s) => `must NOT have fewer than ${String(s.minProperties)} properties`,
  maxProperties: (s) => `must NOT have more than ${String(s.maxProperties)} properties`,
  uniqueItems: () => 'must NOT have duplicate items',
  contains: () => 'must contain at least 1 valid item(s)',
  not: () => 'must NOT be valid',
  false: () => 'boolean schema is false',
  unevaluatedProperties: () => 'must NOT have unevaluated properties',
  unevaluatedItems: () => 'must NOT have unevaluated items',
};

/** The interpreter's output units as ajv's errors: wrappers dropped, `required` one per field, unknown fields named. */
function toSchemaErrors(units: readonly OutputUnit[], value: unknown, root: Schema, lookup: Record<string, Schema | boolean>): SchemaError[] {
  const out: SchemaError[] = [];
  const requiredSeen = new Set<string>();
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const keywordParts = pointerParts(unit.keywordLocation);
    const parentSchema = (schemaAt(keywordParts.slice(0, -1), root, lookup) ?? {}) as Schema;
    const error = (keyword: string, params: Record<string, unknown> = {}): SchemaError => ({
      keyword,
      instancePath: instancePathOf(unit.instanceLocation),
      schemaPath: unit.keywordLocation,
      params,
      parentSchema,
      message: AJV_MESSAGES[keyword]?.(parentSchema) ?? 'is not valid',
    });
    const next = units[i + 1];
    if (
      next?.keyword === 'false' &&
      (unit.keyword === 'additionalProperties' || unit.keyword === 'unevaluatedProperties' || unit.keyword === 'unevaluatedItems')
    ) {
      // A `false` schema that fails each unknown field: ajv names the field on the object.
      const name = pointerParts(next.instanceLocation).pop();
      out.push(error(unit.keyword, unit.keyword === 'additionalProperties' ? { additionalProperty: name } : {}));
      i++;
    } else if (unit.keyword === 'required') {
      // One unit per absent field: as ajv, one error per field in the order of `required`.
      const key = `${unit.instanceLocation}\u0000${unit.keywordLocation}`;
      if (requiredSeen.has(key)) continue;
      requiredSeen.add(key);
      const instance = valueAt(pointerParts(unit.instanceLocation), value) as Json;
      for (const name of parentSchema.required ?? [])
        if (!Object.prototype.hasOwnProperty.call(instance, name)) out.push(error('required', { missingProperty: name }));
    } else if (!WRAPPERS.has(unit.keyword)) {
      out.push(error(unit.keyword));
    }
  }
  // Every failure ends in a unit that is no wrapper; should one not, the first unit still answers.
  if (out.length === 0 && units[0])
    out.push({
      keyword: units[0].keyword,
      instancePath: instancePathOf(units[0].instanceLocation),
      schemaPath: units[0].keywordLocation,
      params: {},
      message: 'is not valid',
    });
  return out;
}
