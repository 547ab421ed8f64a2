// Writes the embedded server's request validators, compiled once here by ajv's standalone code output (as the
// client's response validators are), so the server compiles nothing at run time and starts on Cloudflare Workers:
//
// - src/generated/requestValidators.ts: `<operationId>_body` for each JSON request body, and
//   `component_<Name>` for each component schema a body can carry (what the server checks inside a body on its
//   own: a workflow definition, a JSON-RPC message, the params of an MCP tool call);
// - src/generated/parameterValidators.ts: `<operationId>_<path|query|header>`, the parameters of one place as one
//   object, strings read as the types the schemas ask for (`coerceTypes`), and REQUEST_PARAMETERS, the names
//   checked in each place.
//
// Read strictly, as the document says (unlike the client's lenient reading of answers). `allErrors` so that a
// 422's `missing` lists every absent field; `verbose` so that the server's messages can read the failing schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DOCUMENT_ID, METHODS, deref, rebase, standaloneModuleOf } from './standaloneValidators.mjs';

const PLACES = ['path', 'query', 'header'];

function newAjv(coerceTypes, doc) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateSchema: false,
    coerceTypes,
    validateFormats: false,
    code: { source: true, esm: true },
  });
  ajv.addSchema(doc, DOCUMENT_ID);
  return ajv;
}

function operationsOf(doc) {
  const out = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) if (item[method]) out.push({ item, op: item[method] });
  }
  return out.sort((a, b) => a.op.operationId.localeCompare(b.op.operationId));
}

/** Each operation's parameters by place, as the server checks them: one object schema per place. */
export function parameterChecks(doc) {
  const out = [];
  for (const { item, op } of operationsOf(doc)) {
    const all = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
    for (const place of PLACES) {
      // `format` has its own answer (400 `invalid_format`, always JSON): the server's wire negotiation gives it.
      const own = all.filter((p) => p.in === place && p.name !== 'format' && p.schema);
      if (own.length === 0) continue;
      out.push({
        operationId: op.operationId,
        place,
        names: own.map((p) => p.name),
        schema: {
          type: 'object',
          properties: Object.fromEntries(own.map((p) => [p.name, rebase(p.schema)])),
          required: own.filter((p) => p.required).map((p) => p.name),
        },
      });
    }
  }
  return out;
}

export function renderRequestValidators(doc) {
  const ajv = newAjv(false, doc);
  const exports = {};
  const bodies = [];
  for (const { op } of operationsOf(doc)) {
    const schema = op.requestBody && deref(doc, op.requestBody).content?.['application/json']?.schema;
    if (!schema) continue;
    const name = `${op.operationId}_body`;
    ajv.addSchema(rebase(schema), name);
    exports[name] = name;
    bodies.push(schema);
  }
  for (const name of carriedComponents(doc, bodies)) exports[`component_${name}`] = `${DOCUMENT_ID}#/components/schemas/${name}`;
  return standaloneModuleOf(ajv, exports, 'requestValidators');
}

/** The component schemas a request body can carry (reached from the bodies by `$ref`), sorted by name. */
function carriedComponents(doc, bodies) {
  const seen = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' && typeof value === 'string' ? /#\/components\/schemas\/(\w+)$/.exec(value)?.[1] : undefined;
      if (name && !seen.has(name)) {
        seen.add(name);
        walk(doc.components.schemas[name]);
      } else walk(value);
    }
  };
  walk(bodies);
  return [...seen].sort();
}

export function renderParameterValidators(doc) {
  const ajv = newAjv(true, doc);
  const checks = parameterChecks(doc);
  const exports = {};
  const places = {};
  for (const check of checks) {
    const name = `${check.operationId}_${check.place}`;
    ajv.addSchema(check.schema, name);
    exports[name] = name;
    (places[check.operationId] ??= {})[check.place] = check.names;
  }
  let out = standaloneModuleOf(ajv, exports, 'parameterValidators');
  out += '\n/** The parameters each operation checks, by place (path, query, header): `<operationId>_<place>` checks them. */\n';
  out += `export const REQUEST_PARAMETERS = ${JSON.stringify(places)};\n`;
  return out;
}
