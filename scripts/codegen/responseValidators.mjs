// Writes src/generated/responseValidators.ts: one plain validator function per answer of openapi.json (each 2xx
// JSON/YAML body, each stream's event), compiled once here by ajv's standalone code output, so nothing compiles
// code at run time (`new Function` is refused on Cloudflare Workers). The client loads the module only when
// `validate` is on.
//
// Forward compatible: the schemas are read leniently. An unknown field passes (`additionalProperties: false` is
// dropped), an unknown enum value passes (`enum` is dropped; `oneOf` is read as `anyOf`, since members that differ
// only by an enum would then overlap).
//
// Small, since it is in the bundle of every program that turns `validate` on: ajv's draft-07 class (openapi.json
// uses no keyword of a later draft, and the 2020 class tracks evaluated properties in every function), no
// annotations, and each component schema compiled once (`inlineRefs: false`).
import AjvModule from 'ajv';
import { DOCUMENT_ID, METHODS, deref, standaloneModuleOf } from './standaloneValidators.mjs';

const Ajv = AjvModule.default ?? AjvModule;

// Keywords that check nothing (annotations; `format`, which the validators do not check) or that a newer service
// may outgrow (`enum`, `discriminator`): left out, so the generated code does not carry them.
const DROPPED = new Set([
  'enum',
  'discriminator',
  'example',
  'examples',
  'description',
  'title',
  'format',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  'contentMediaType',
  'contentEncoding',
  '$comment',
]);

/** A schema as the client reads an answer: what a newer service may add does not fail. */
function lenient(node) {
  if (Array.isArray(node)) return node.map(lenient);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out.$ref = schemaId(value);
    else out[key === 'oneOf' ? 'anyOf' : key] = lenient(value);
  }
  return out;
}

/**
 * The id a schema of openapi.json is compiled under: each component schema on its own, so every answer that uses it
 * calls one function (compiled as a part of the whole document, ajv wrote a component out again for each answer).
 */
const schemaId = (ref) => (ref.startsWith('#/components/schemas/') ? `oz:${ref.slice('#/components/schemas/'.length)}` : `${DOCUMENT_ID}${ref}`);

/** The answers to validate: `<operationId>_<status>` for a 2xx JSON body, `<operationId>_event` for a stream's event. */
export function validatedAnswers(doc) {
  const out = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const [status, ref] of Object.entries(op.responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        const response = deref(doc, ref);
        const json = response.content?.['application/json']?.schema;
        if (json) out.push({ name: `${op.operationId}_${status}`, schema: json });
        const stream = response.content?.['text/event-stream'] ?? response['x-oz-alternative-content']?.['text/event-stream'];
        if (stream?.schema?.contentSchema) out.push({ name: `${op.operationId}_event`, schema: stream.schema.contentSchema });
      }
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export function renderResponseValidators(doc) {
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false, validateFormats: false, inlineRefs: false, code: { source: true, esm: true } });
  ajv.addSchema(lenient({ components: doc.components }), DOCUMENT_ID);
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(lenient(schema), `oz:${name}`);
  const answers = validatedAnswers(doc);
  const exports = {};
  for (const answer of answers) {
    ajv.addSchema(lenient(answer.schema), answer.name);
    exports[answer.name] = answer.name;
  }
  let out = standaloneModuleOf(ajv, exports, 'responseValidators');
  out += '\n/** The names of the validated answers: `<operationId>_<status>` and `<operationId>_event`. */\n';
  out += `export const VALIDATED_ANSWERS = ${JSON.stringify(answers.map((a) => a.name))};\n`;
  return out;
}
