// Writes the TypeScript of src/generated/ from the model of model.mjs. Deterministic: same input, same bytes.
import { className, pascal } from './model.mjs';

const doc = (lines, indent) => {
  const body = lines.flatMap((l) => l.split('\n')).map((l) => (l ? `${indent} * ${l}` : `${indent} *`));
  return `${indent}/**\n${body.join('\n')}\n${indent} */\n`;
};
const escapeDoc = (s) => s.replace(/\*\//g, '*\\/');
const queryTypeName = (op) => `${pascal(op.id)}Query`;

export function renderTypes(spec, model) {
  let out = "import type { components, operations } from './openapi.js';\n\n";
  for (const [name, schema] of Object.entries(spec.components.schemas)) {
    const text = schema.description ?? `The \`${name}\` schema of openapi.json.`;
    if (model.formatFreeBodies.has(name)) {
      out += doc([escapeDoc(text), '', 'The wire is chosen with the per-call `format` option, which also types the result; a `format` in the body is left out here.'], '');
      out += `export type ${name} = components['schemas']['${name}'] & { format?: never };\n`;
    } else {
      out += doc([escapeDoc(text)], '');
      out += `export type ${name} = components['schemas']['${name}'];\n`;
    }
  }
  for (const op of model.operations.filter((o) => o.userQuery.length > 0)) {
    out += `\n${doc([`Query parameters of \`${[...op.resource, op.verb].join('.')}\` (\`${op.method} ${op.path}\`).`], '')}`;
    out += `export type ${queryTypeName(op)} = Omit<NonNullable<operations['${op.id}']['parameters']['query']>, 'format'>;\n`;
  }
  return out;
}

export function renderOperations(model) {
  let out = "import type { Operation } from '../core/operation.js';\n\n";
  out += doc(['Every operation of openapi.json, as the transport reads it.'], '');
  out += 'export const OPERATIONS = {\n';
  for (const op of model.operations) {
    const slash = op.pathParams.filter((p) => p.slashes).map((p) => `'${p.name}'`);
    out += `  ${op.id}: {\n`;
    out += `    id: '${op.id}',\n    method: '${op.method}',\n    path: '${op.path}',\n    plane: '${op.plane}',\n`;
    out += `    auth: '${op.auth}',\n    idempotent: ${op.idempotent},\n    wire: ${op.wire},\n    yamlBody: ${op.yamlBody},\n`;
    out += `    streaming: '${op.streaming}',\n    paged: ${op.paged},\n`;
    if (slash.length) out += `    slashParams: [${slash.join(', ')}],\n`;
    if (op.deprecated) out += '    deprecated: true,\n';
    if (op.deprecatedParams.length) out += `    deprecatedParams: [${op.deprecatedParams.map((p) => `{ name: '${p.name}', in: '${p.in}' }`).join(', ')}],\n`;
    out += '  },\n';
  }
  out += '} as const satisfies Record<string, Operation>;\n\n';
  out += doc(['The `operationId` of every operation of openapi.json.'], '');
  out += 'export type OperationId = keyof typeof OPERATIONS;\n';
  return out;
}

export function renderResourceFile(file) {
  const uses = new Set();
  const classes = file.classes.map((node) => renderClass(node, uses));
  let out = '';
  if (uses.has('APIPromise')) out += "import type { APIPromise } from '../../core/apiPromise.js';\n";
  if (uses.has('PagePromise')) out += "import type { PagePromise } from '../../core/pagination.js';\n";
  if (uses.has('RequestOptions')) out += "import type { RequestOptions } from '../../core/requestOptions.js';\n";
  if (uses.has('Stream')) out += "import type { Stream } from '../../core/stream.js';\n";
  if (uses.has('Waitable')) out += "import type { Waitable } from '../../core/executionPoller.js';\n";
  out += "import type { Transport } from '../../core/transport.js';\n";
  const wire = ['DefaultRequestOptions', 'ParsedWireOptions', 'JsonRequestOptions', 'ListRequestOptions', 'StreamRequestOptions', 'WireResult'].filter((n) => uses.has(n));
  if (wire.length) out += `import type { ${wire.join(', ')} } from '../../core/wire.js';\n`;
  const errorTypes = ['OperationError', 'WaitError'].filter((n) => uses.has(n));
  if (errorTypes.length) out += `import type { ${errorTypes.join(', ')} } from '../operationErrors.js';\n`;
  if (uses.has('OPERATIONS')) out += "import { OPERATIONS } from '../operations.js';\n";
  if (uses.has('T')) out += "import type * as T from '../types.js';\n";
  return `${out}\n${classes.join('\n')}`;
}

function renderClass(node, uses) {
  const name = className(node);
  const children = [...node.children.values()];
  const label = node.path.join('.');
  let out = doc([`The \`${label}\` resource: ${node.methods.length ? node.methods.map((m) => `\`${m.verb}\``).join(', ') : 'its sub-resources'}.`], '');
  out += `export class ${name} {\n`;
  for (const child of children) {
    out += doc([`The \`${child.path.join('.')}\` resource.`], '  ');
    out += `  readonly ${child.path.at(-1)}: ${className(child)};\n`;
  }
  if (node.methods.length) out += '  readonly #transport: Transport;\n';
  out += '\n  constructor(transport: Transport) {\n';
  if (node.methods.length) out += '    this.#transport = transport;\n';
  for (const child of children) out += `    this.${child.path.at(-1)} = new ${className(child)}(transport);\n`;
  out += '  }\n';
  for (const op of [...node.methods].sort((a, b) => a.verb.localeCompare(b.verb))) out += `\n${renderMethod(op, uses)}`;
  return `${out}}\n`;
}

function renderMethod(op, uses) {
  uses.add('OPERATIONS').add('OperationError');
  // Every promise carries what the call can fail with (its `result()` error type), every pointer its wait's.
  const api = (type) => `APIPromise<${type}, OperationError<'${op.id}'>>`;
  const waitable = (pointer) => {
    uses.add('WaitError');
    return `Waitable<${pointer}, WaitError>`;
  };
  const lines = [escapeDoc(op.summary)];
  if (op.description) lines.push('', escapeDoc(op.description));
  lines.push('', `\`${op.method} ${op.path}\``, '');
  for (const p of op.pathParams) {
    // The transport sends what follows a `?` in a passed-through path as the query string (see its pathOf).
    const query = p.slashes ? ' What follows a `?` is sent as the query string, with `options.query` added to it.' : '';
    lines.push(`@param ${p.arg} - ${p.deprecated ? 'Deprecated. ' : ''}${escapeDoc(p.description)}${query}`);
  }
  if (op.body) lines.push('@param body - The request body.');
  if (op.userQuery.length) lines.push('@param query - Query parameters.');
  lines.push('@param options - Per-call options; each overrides the client\'s own.');
  const deprecatedParams = op.deprecatedParams.filter((p) => p.in !== 'path').map((p) => `\`${p.name}\` (${p.in})`);
  if (op.deprecated) lines.push('@deprecated The API description marks this operation deprecated: it may be removed. The first call in a process logs a warning.');
  else if (deprecatedParams.length) lines.push('', `Deprecated parameters: ${deprecatedParams.join(', ')}; the first call that sends one logs a warning.`);
  const tsdoc = doc(lines, '  ');

  const args = op.pathParams.map((p) => `${p.arg}: string`);
  const pathArg = op.pathParams.length ? `path: { ${op.pathParams.map((p) => (p.arg === p.name ? p.name : `'${p.name}': ${p.arg}`)).join(', ')} }` : '';
  const input = [pathArg];
  const bodyArg = (type, required) => `body${required ? '' : '?'}: ${type}`;
  if (op.body || op.result?.startsWith('T.') || op.pointer || op.userQuery.length || op.streamEvent || op.listItem) uses.add('T');
  if (op.userQuery.length) {
    args.push(`query?: T.${queryTypeName(op)}`);
    input.push('query');
  }
  if (op.body) input.push('body');
  const inputExpr = `{ ${input.filter(Boolean).join(', ')} }`.replace('{  }', '{}');
  const call = (fn) => `    return this.#transport.${fn}(OPERATIONS.${op.id}, ${inputExpr}, options);\n`;

  if (op.paged) {
    uses.add('PagePromise').add('ListRequestOptions');
    return `${tsdoc}  ${op.verb}(${[...args, 'options?: ListRequestOptions'].join(', ')}): PagePromise<T.${op.listItem}, OperationError<'${op.id}'>> {\n${call('list')}  }\n`;
  }
  if (op.streaming === 'always') {
    uses.add('APIPromise').add('Stream').add('StreamRequestOptions');
    const all = [...args, ...(op.body ? [bodyArg(op.body.type, op.body.required)] : []), 'options?: StreamRequestOptions'];
    return `${tsdoc}  ${op.verb}(${all.join(', ')}): ${api(`Stream<${op.streamEvent}>`)} {\n${call('stream')}  }\n`;
  }

  uses.add('APIPromise');
  const signatures = [];
  const bodyType = op.body?.type;
  const streamable = op.streaming === 'optional' || op.streaming === 'chat';
  if (streamable) {
    uses.add('Stream').add('StreamRequestOptions');
    signatures.push(`${op.verb}(${[...args, `body: ${bodyType} & { stream: true }`, 'options?: StreamRequestOptions'].join(', ')}): ${api(`Stream<${op.streamEvent}>`)};`);
  }
  const result = op.result ?? op.pointer;
  const generic = op.wire ? '<O extends RequestOptions = DefaultRequestOptions>' : '';
  const optionsType = op.wire ? 'O' : 'JsonRequestOptions';
  const ret = (type) => api(op.wire ? `WireResult<${type}, O>` : type);
  if (op.wire) uses.add('RequestOptions').add('WireResult').add('DefaultRequestOptions');
  else uses.add('JsonRequestOptions');
  const noStream = streamable ? ' & { stream?: false }' : '';
  if (op.pointer && op.result && op.body) {
    // An async pointer is parsed into its typed object on every wire, markdown and text included.
    uses.add('Waitable');
    signatures.push(`${op.verb}${generic}(${[...args, `body: ${bodyType} & { async: true }${noStream}`, `options?: ${optionsType}`].join(', ')}): ${api(waitable(op.pointer))};`);
    signatures.push(`${op.verb}${generic}(${[...args, bodyArg(`${bodyType} & { async?: false }${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${ret(op.result)};`);
    signatures.push(`${op.verb}${generic}(${[...args, bodyArg(`${bodyType}${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${api(`${op.wire ? `WireResult<${op.result}, O>` : op.result} | ${waitable(op.pointer)}`)};`);
  } else if (streamable) {
    signatures.push(`${op.verb}${generic}(${[...args, bodyArg(`${bodyType}${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${ret(result)};`);
  }
  if (streamable) {
    // `stream` held in a variable (a boolean): any of the answers above.
    // Not generic: a generic options type would win TypeScript's first (subtype) pass over the literal overloads.
    // On a wire operation, options without a string wire first, then any options (a string among the answers).
    const pointer = op.pointer && op.result && op.body ? [waitable(op.pointer)] : [];
    const wide = (options, parsed) => `${op.verb}(${[...args, bodyArg(bodyType, op.body.required), `options?: ${options}`].join(', ')}): ${api([`Stream<${op.streamEvent}>`, parsed, ...pointer].join(' | '))};`;
    if (op.wire) {
      uses.add('ParsedWireOptions');
      signatures.push(wide('ParsedWireOptions', result), wide('RequestOptions', `WireResult<${result}, RequestOptions>`));
    } else {
      signatures.push(wide(optionsType, result));
    }
  }
  const implArgs = [...args, ...(op.body ? [bodyArg(bodyType, op.body.required)] : [])];
  if (signatures.length) {
    uses.add('RequestOptions');
    const implOptions = streamable ? 'RequestOptions | StreamRequestOptions' : 'RequestOptions';
    const overloads = signatures.map((s) => `  ${s}\n`).join('');
    return `${tsdoc}${overloads}  ${op.verb}(${[...implArgs, `options?: ${implOptions}`].join(', ')}): ${api('unknown')} {\n${call('request')}  }\n`;
  }
  if (op.pointer && !op.result) {
    // Answers only an async pointer: typed as such on every wire.
    uses.add('Waitable');
    return `${tsdoc}  ${op.verb}(${[...implArgs, `options?: ${op.wire ? 'RequestOptions' : optionsType}`].join(', ')}): ${api(waitable(op.pointer))} {\n${call('request')}  }\n`;
  }
  return `${tsdoc}  ${op.verb}${generic}(${[...implArgs, `options?: ${optionsType}`].join(', ')}): ${ret(result)} {\n${call('request')}  }\n`;
}

export function renderResourcesIndex(model) {
  const top = [...model.root.children.values()];
  let out = "import type { Transport } from '../core/transport.js';\n";
  for (const file of model.files) {
    const names = file.classes.map(className).sort();
    out += `import { ${names.join(', ')} } from './resources/${file.tag}.js';\n`;
  }
  out += '\n';
  for (const file of model.files) {
    out += `export { ${file.classes.map(className).sort().join(', ')} } from './resources/${file.tag}.js';\n`;
  }
  out += "export * from './errors.js';\n";
  out += "export { OPERATIONS, type OperationId } from './operations.js';\n";
  out += "export type * from './types.js';\n";
  out += "export type { components, operations, paths } from './openapi.js';\n\n";
  out += doc(['Every resource of the API, as generated from openapi.json: one property per top-level resource.'], '');
  out += 'export class OzResources {\n';
  for (const node of top) {
    out += doc([`The \`${node.path[0]}\` resource.`], '  ');
    out += `  readonly ${node.path[0]}: ${className(node)};\n`;
  }
  out += '\n  constructor(transport: Transport) {\n';
  for (const node of top) out += `    this.${node.path[0]} = new ${className(node)}(transport);\n`;
  out += '  }\n}\n';
  return out;
}
