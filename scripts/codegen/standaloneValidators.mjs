// What the generated validators of src/generated/ share: ajv's standalone code output turned into a module that
// loads and compiles nothing at run time (`new Function` is refused on Cloudflare Workers), so neither the client
// (responseValidators.ts) nor the embedded server (requestValidators.ts, parameterValidators.ts) needs ajv, a
// devDependency, once generated.
import standaloneModule from 'ajv/dist/standalone/index.js';

const standaloneCode = standaloneModule.default ?? standaloneModule;

/** The id openapi.json is registered under: `#/...` references of a schema compiled on its own point into it. */
export const DOCUMENT_ID = 'openapi.json';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The node a `$ref` of the document points at (followed until it is not a reference). */
export const deref = (doc, node) => {
  let n = node;
  while (n && n.$ref)
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o[k], doc);
  return n;
};

/** `#/components/...` references made absolute (`openapi.json#/components/...`), so a schema compiles on its own. */
export function rebase(node) {
  if (Array.isArray(node)) return node.map(rebase);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : rebase(value);
  }
  return out;
}

// ajv's runtime helpers the standalone code would `require` from ajv (a devDependency): written in instead.
const RUNTIME = {
  'ajv/dist/runtime/ucs2length': `function ucs2length(str) {
  // Lengths count code points (Unicode characters), as JSON Schema's maxLength does.
  let length = 0;
  for (const _ of str) length++;
  return length;
}`,
};

/**
 * The text of a generated validators module: ajv's standalone code of `exports` (export name -> schema id of
 * `ajv`), ajv's runtime helpers written in, checked to load and compile nothing at run time.
 */
export function standaloneModuleOf(ajv, exports, what) {
  let code = standaloneCode(ajv, exports);
  const helpers = [];
  code = code.replace(/require\("([^"]+)"\)\.default/g, (_, module) => {
    const helper = RUNTIME[module];
    if (!helper) throw new Error(`${what}: the standalone code needs ${module}, which has no inline version`);
    const name = helper.match(/^function (\w+)/)[1];
    if (!helpers.includes(helper)) helpers.push(helper);
    return name;
  });
  if (/require\(|new Function|eval\(/.test(code)) throw new Error(`${what}: the standalone code still loads or compiles code at run time`);
  let out = "// @ts-nocheck: plain JavaScript written by ajv's standalone code output.\n/* eslint-disable */\n";
  out += `${helpers.join('\n')}\n${code.replace(/^"use strict";/, '')}\n`;
  return out;
}
