// Writes src/generated/responseValidators.ts: one plain validator function per answer of openapi.json (each 2xx
// JSON/YAML body, each stream's event), compiled once here by ajv's standalone code output, so nothing compiles
// code at run time (`new Function` is refused on Cloudflare Workers). The client loads the module only when
// `validate` is on.
//
// Forward compatible: the schemas are read leniently. An unknown field passes (`additionalProperties: false` is
// dropped), an unknown enum value passes (`enum` is dropped; `oneOf` is read as `anyOf`, since members that differ
// only by an enum would then overlap).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DOCUMENT_ID, METHODS, deref, standaloneModuleOf } from './standaloneValidators.mjs';

/** A schema as the client reads an answer: what a newer service may add does not fail. */
function lenient(node) {
  if (Array.isArray(node)) return node.map(lenient);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'discriminator' || key === 'example' || key === 'examples') continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out.$ref = `${DOCUMENT_ID}${value}`;
    else out[key === 'oneOf' ? 'anyOf' : key] = lenient(value);
  }
  return out;
}

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
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, validateFormats: false, code: { source: true, esm: true } });
  const view = lenient({ components: doc.components });
  ajv.addSchema(view, DOCUMENT_ID);
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
