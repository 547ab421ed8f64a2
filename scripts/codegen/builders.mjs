// Writes what the test builders of `oz-sdk/testing` (src/testing/builders/) are made from:
//
// - src/generated/builders.ts: one entry per resource schema of openapi.json (a schema an operation answers with a
//   2xx JSON body, or the element of such a list's `data`; list envelopes themselves are `build.page`): the
//   builder's name (`x-oz-builder`, else the schema's name in lower camel case), a template value made from the
//   schema, and where its ids go (`x-oz-id-prefix` on a property); and the error codes' default messages and the
//   fields each code carries (`x-oz-carries`), for `build.error`.
// - src/generated/builderValidators.ts: a strict validator per resource schema and the error envelope (ajv's
//   standalone code, as the server's request validators), so a built value is checked against openapi.json itself.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validatedAnswers } from './responseValidators.mjs';
import { DOCUMENT_ID, deref, standaloneModuleOf } from './standaloneValidators.mjs';

/** The time every built timestamp starts at (the contract's example time): a fixed one, so builds are deterministic. */
export const BUILT_TIME = '2026-11-21T12:00:00.000Z';

const refName = (node) => (typeof node?.$ref === 'string' ? /#\/components\/schemas\/(\w+)$/.exec(node.$ref)?.[1] : undefined);

/**
 * A list envelope (`ItemList`: `data` and `next_cursor`; `ModelList`: `object` and `data`), built by `build.page`:
 * its element is the resource. `EmbeddingResponse` has more than a list's fields: a resource of its own.
 */
function listElement(schema) {
  const listOnly = (schema.required ?? []).every((k) => ['data', 'next_cursor', 'object'].includes(k));
  return schema.properties?.data?.type === 'array' && listOnly ? refName(schema.properties.data.items) : undefined;
}

/** The resource schemas of openapi.json (the 2xx JSON answers the client validates, a list's element for a list), sorted by name. */
export function resourceSchemasOf(doc) {
  const names = new Set();
  for (const answer of validatedAnswers(doc)) {
    const name = refName(answer.schema);
    if (answer.name.endsWith('_event') || !name) continue;
    const schema = doc.components.schemas[name];
    const element = listElement(schema);
    if (element) names.add(element);
    else if (schema.type === 'object' && schema.properties) names.add(name);
  }
  return [...names].sort();
}

/** The builder's name of a schema: `x-oz-builder`, else `ExecutionList` -> `executionList`. */
export function builderName(doc, name) {
  return doc.components.schemas[name]['x-oz-builder'] ?? name[0].toLowerCase() + name.slice(1);
}

const isNull = (node) => node?.type === 'null';
const nullable = (schema) => (Array.isArray(schema.type) && schema.type.includes('null')) || (schema.anyOf ?? schema.oneOf ?? []).some(isNull);

/**
 * A value of `node` (a schema), valid against it: its `example` or `default`, required properties only, `null` where null is allowed, the
 * first enum value, the minimum number. `ids` collects where a prefixed id goes (`x-oz-id-prefix`).
 */
function sample(doc, node, path, ids, field) {
  const schema = deref(doc, node);
  if (schema['x-oz-id-prefix'] && !nullable(schema)) {
    ids.push({ path, prefix: schema['x-oz-id-prefix'] });
    return `${schema['x-oz-id-prefix']}0`;
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (nullable(schema)) return null;
  const members = schema.oneOf ?? schema.anyOf;
  if (members) return sample(doc, members[0], path, ids, field);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return BUILT_TIME;
      if (schema.format === 'uri') return `https://example.com/${field}`;
      return field.padEnd(schema.minLength ?? 0, '_');
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => sample(doc, schema.items, [...path, i], ids, field));
    case 'object':
    case undefined: {
      const out = {};
      for (const key of schema.required ?? []) out[key] = sample(doc, schema.properties?.[key] ?? {}, [...path, key], ids, key);
      return out;
    }
    default:
      throw new Error(`builders: no sample for type ${type} at ${path.join('.')}`);
  }
}

/** The builders' table: name, schema, template and id paths per resource schema. */
export function buildersOf(doc) {
  const seen = new Map();
  return resourceSchemasOf(doc).map((schema) => {
    const name = builderName(doc, schema);
    if (seen.has(name)) throw new Error(`builders: ${schema} and ${seen.get(name)} both build as ${name}`);
    if (['error', 'page'].includes(name)) throw new Error(`builders: ${schema} builds as ${name}, a name of the builders' own`);
    seen.set(name, schema);
    const ids = [];
    const template = sample(doc, { $ref: `#/components/schemas/${schema}` }, [], ids, schema);
    return { name, schema, template, ids };
  });
}

/** Each error code's status, default message and the fields it carries, sampled from `ErrorObject`. */
export function errorDefaultsOf(doc) {
  const object = doc.components.schemas.ErrorObject;
  const out = {};
  for (const c of doc.components.schemas.ErrorCode.oneOf) {
    const carried = {};
    for (const field of c['x-oz-carries'] ?? []) carried[field] = sample(doc, object.properties[field], [field], [], field);
    out[c.const] = { status: c['x-oz-status'], message: c.description, carried };
  }
  return out;
}

function newAjv(doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false, validateFormats: false, code: { source: true, esm: true } });
  ajv.addSchema(doc, DOCUMENT_ID);
  return ajv;
}

/** The validators' module: `component_<Schema>` for every resource schema and `ErrorEnvelope`. */
export function renderBuilderValidators(doc) {
  const ajv = newAjv(doc);
  const exports = {};
  for (const schema of [...resourceSchemasOf(doc), 'ErrorEnvelope']) exports[`component_${schema}`] = `${DOCUMENT_ID}#/components/schemas/${schema}`;
  return standaloneModuleOf(ajv, exports, 'builderValidators');
}

/** src/generated/builders.ts. Every template is checked valid here: a schema the sampler cannot fill fails the generation. */
export function renderBuilders(doc) {
  const builders = buildersOf(doc);
  const ajv = newAjv(doc);
  for (const b of builders) {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${b.schema}`);
    if (!validate(b.template)) throw new Error(`builders: the template of ${b.schema} is not valid: ${ajv.errorsText(validate.errors)}`);
  }
  const types = [...new Set(builders.map((b) => b.schema))];
  let out = `import type { ${[...types, 'ErrorCode'].sort().join(', ')} } from './types.js';\n\n`;
  out += '/** The resource schemas of openapi.json by builder name (`build.item()` builds an `Item`). */\n';
  out += 'export interface BuiltResources {\n';
  for (const b of builders) out += `  /** \`${b.schema}\` of openapi.json. */\n  ${b.name}: ${b.schema};\n`;
  out += '}\n\n';
  out += "/** Where a built value gets a new id: a path into the value and the id's prefix (`x-oz-id-prefix`). */\n";
  out += 'export interface BuiltId {\n  readonly path: readonly (string | number)[];\n  readonly prefix: string;\n}\n\n';
  out += '/** One builder: its schema, a valid value of it made from the schema, and where its ids go. */\n';
  out += 'export interface BuilderSpec {\n  readonly schema: string;\n  readonly template: unknown;\n  readonly ids: readonly BuiltId[];\n}\n\n';
  out += `/** The time every built timestamp holds. */\nexport const BUILT_TIME = '${BUILT_TIME}';\n\n`;
  out += "/** Every resource schema's builder, by name. */\n";
  out += 'export const RESOURCE_BUILDERS: { readonly [K in keyof BuiltResources]: BuilderSpec } = {\n';
  for (const b of builders) out += `  ${b.name}: { schema: '${b.schema}', template: ${JSON.stringify(b.template)}, ids: ${JSON.stringify(b.ids)} },\n`;
  out += '};\n\n';
  out += "/** Each error code's status, its description as the default message, and the fields it always carries. */\n";
  out +=
    'export const ERROR_DEFAULTS: { readonly [C in ErrorCode]: { readonly status: number; readonly message: string; readonly carried: Readonly<Record<string, unknown>> } } = ';
  out += `${JSON.stringify(errorDefaultsOf(doc), null, 2)};\n`;
  return out;
}
