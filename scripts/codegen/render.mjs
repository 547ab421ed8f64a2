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
      out += doc(
        [escapeDoc(text), '', 'The wire is chosen with the per-call `format` option, which also types the result; a `format` in the body is left out here.'],
        '',
      );
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

/** The name of an operation's own descriptor constant in operations.ts (what one standalone function imports). */
export const operationConst = (op) => `${op.id}Operation`;

export function renderOperations(model) {
  let out = "import { streamAnswer } from '../core/answer/streamAnswer.js';\n";
  out += "import type { StreamingOperation } from '../core/shared/call.js';\n";
  out += "import { operationsById, type Operation } from '../core/shared/operation.js';\n\n";
  // One constant per operation, so that a bundle of one standalone function carries its operation's alone.
  for (const op of model.operations) {
    const slash = op.pathParams.filter((p) => p.slashes).map((p) => `'${p.name}'`);
    out += doc([`\`${op.method} ${op.path}\` (\`${op.id}\`), as the transport reads it.`], '');
    out += `export const ${operationConst(op)} = {\n`;
    out += `  id: '${op.id}',\n  method: '${op.method}',\n  path: '${op.path}',\n  plane: '${op.plane}',\n`;
    out += `  auth: '${op.auth}',\n  startsRun: ${op.startsRun},\n  wire: ${op.wire},\n  yamlBody: ${op.yamlBody},\n`;
    out += `  streaming: '${op.streaming}',\n  paged: ${op.paged},\n`;
    if (slash.length) out += `  slashParams: [${slash.join(', ')}],\n`;
    if (op.deprecated) out += '  deprecated: true,\n';
    if (op.deprecatedParams.length) out += `  deprecatedParams: [${op.deprecatedParams.map((p) => `{ name: '${p.name}', in: '${p.in}' }`).join(', ')}],\n`;
    // The stream's reader only where the operation streams: a bundle of a function that never streams has no stream code.
    if (op.streaming !== 'none') out += '  streamAnswer,\n';
    out += `} as const satisfies ${op.streaming === 'none' ? 'Operation' : 'StreamingOperation'};\n\n`;
  }
  out += doc(['Every operation of openapi.json, as the transport reads it, by `operationId`.'], '');
  // Pure: a bundle of one standalone function drops the table and every other descriptor.
  out += 'export const OPERATIONS = /* @__PURE__ */ operationsById([\n';
  for (const op of model.operations) out += `  ${operationConst(op)},\n`;
  out += ']);\n\n';
  out += doc(['The `operationId` of every operation of openapi.json.'], '');
  out += 'export type OperationId = keyof typeof OPERATIONS;\n';
  return out;
}

export function renderResourceFile(file) {
  const uses = new Set();
  const classes = file.classes.map((node) => renderClass(node, uses));
  let out = '';
  if (uses.has('APIPromise')) out += "import type { APIPromise } from '../../core/result/apiPromise.js';\n";
  if (uses.has('PagePromise')) out += "import type { PagePromise } from '../../core/result/pagination.js';\n";
  if (uses.has('RequestOptions')) out += "import type { RequestOptions } from '../../core/shared/requestOptions.js';\n";
  if (uses.has('Stream')) out += "import type { Stream } from '../../core/streams/stream.js';\n";
  if (uses.has('Waitable')) out += "import type { Waitable } from '../../core/executions/executionPoller.js';\n";
  if (uses.has('listPages')) out += "import { listPages } from '../../core/result/pagination.js';\n";
  out += "import type { Transport } from '../../core/transport.js';\n";
  const wire = ['DefaultRequestOptions', 'ParsedWireOptions', 'JsonRequestOptions', 'ListRequestOptions', 'StreamRequestOptions', 'WireResult'].filter((n) =>
    uses.has(n),
  );
  if (wire.length) out += `import type { ${wire.join(', ')} } from '../../core/result/resultTypes.js';\n`;
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
  for (const op of [...node.methods].sort((a, b) => a.verb.localeCompare(b.verb))) out += `\n${renderMethod(op, uses, METHOD_FORM)}`;
  return `${out}}\n`;
}

// How one operation is written: a method of a resource class, or a standalone function (`renderFuncsFile`).
export const METHOD_FORM = {
  indent: '  ',
  head: (op) => op.verb,
  args: [],
  transport: () => 'this.#transport',
  descriptor: (op, uses) => {
    uses.add('OPERATIONS');
    return `OPERATIONS.${op.id}`;
  },
  optionsDoc: "Per-call options; each overrides the client's own.",
};

/** The standalone function's name: the `Oz` method's path in camelCase (`tools.execute` is `toolsExecute`). */
export const funcName = (op) => [...op.resource, op.verb].map((w, i) => (i === 0 ? w : pascal(w))).join('');

export const FUNCTION_FORM = {
  indent: '',
  head: (op) => `export function ${funcName(op)}`,
  args: ['core: CoreClient'],
  transport: () => 'transportOf(core)',
  descriptor: (op, uses) => {
    uses.add(`op:${operationConst(op)}`);
    return operationConst(op);
  },
  optionsDoc: "Per-call options; each overrides the core's own.",
  coreDoc: 'The `OzCore` the call is sent through (its key, base address, retries, `fetch`).',
};

export function renderMethod(op, uses, form) {
  uses.add('OperationError');
  const ind = form.indent;
  // Every promise carries what the call can fail with (its `result()` error type), every pointer its wait's.
  const api = (type) => `APIPromise<${type}, OperationError<'${op.id}'>>`;
  const waitable = (pointer) => {
    uses.add('WaitError');
    return `Waitable<${pointer}, WaitError>`;
  };
  const lines = [escapeDoc(op.summary)];
  if (op.description) lines.push('', escapeDoc(op.description));
  lines.push('', `\`${op.method} ${op.path}\``, '');
  if (form.coreDoc) lines.push(`@param core - ${form.coreDoc}`);
  for (const p of op.pathParams) {
    // The transport sends what follows a `?` in a passed-through path as the query string (see its pathOf).
    const query = p.slashes ? ' What follows a `?` is sent as the query string, with `options.query` added to it.' : '';
    lines.push(`@param ${p.arg} - ${p.deprecated ? 'Deprecated. ' : ''}${escapeDoc(p.description)}${query}`);
  }
  if (op.body) lines.push('@param body - The request body.');
  if (op.userQuery.length) lines.push('@param query - Query parameters.');
  lines.push(`@param options - ${form.optionsDoc}`);
  const deprecatedParams = op.deprecatedParams.filter((p) => p.in !== 'path').map((p) => `\`${p.name}\` (${p.in})`);
  if (op.deprecated)
    lines.push('@deprecated The API description marks this operation deprecated: it may be removed. The first call in a process logs a warning.');
  else if (deprecatedParams.length) lines.push('', `Deprecated parameters: ${deprecatedParams.join(', ')}; the first call that sends one logs a warning.`);
  const tsdoc = doc(lines, ind);

  const args = [...form.args, ...op.pathParams.map((p) => `${p.arg}: string`)];
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
  const descriptor = form.descriptor(op, uses);
  const call = (fn) =>
    fn === 'list'
      ? `${ind}  return listPages(${form.transport(op)}, ${descriptor}, ${inputExpr}, options);\n`
      : `${ind}  return ${form.transport(op)}.${fn}(${descriptor}, ${inputExpr}, options);\n`;
  const head = form.head(op);
  const end = `${ind}}\n`;

  if (op.paged) {
    uses.add('PagePromise').add('ListRequestOptions').add('listPages');
    return `${tsdoc}${ind}${head}(${[...args, 'options?: ListRequestOptions'].join(', ')}): PagePromise<T.${op.listItem}, OperationError<'${op.id}'>> {\n${call('list')}${end}`;
  }
  if (op.streaming === 'always') {
    uses.add('APIPromise').add('Stream').add('StreamRequestOptions');
    const all = [...args, ...(op.body ? [bodyArg(op.body.type, op.body.required)] : []), 'options?: StreamRequestOptions'];
    return `${tsdoc}${ind}${head}(${all.join(', ')}): ${api(`Stream<${op.streamEvent}>`)} {\n${call('stream')}${end}`;
  }

  uses.add('APIPromise');
  const signatures = [];
  const bodyType = op.body?.type;
  const streamable = op.streaming === 'optional' || op.streaming === 'chat';
  if (streamable) {
    uses.add('Stream').add('StreamRequestOptions');
    signatures.push(
      `${head}(${[...args, `body: ${bodyType} & { stream: true }`, 'options?: StreamRequestOptions'].join(', ')}): ${api(`Stream<${op.streamEvent}>`)};`,
    );
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
    signatures.push(
      `${head}${generic}(${[...args, `body: ${bodyType} & { async: true }${noStream}`, `options?: ${optionsType}`].join(', ')}): ${api(waitable(op.pointer))};`,
    );
    signatures.push(
      `${head}${generic}(${[...args, bodyArg(`${bodyType} & { async?: false }${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${ret(op.result)};`,
    );
    signatures.push(
      `${head}${generic}(${[...args, bodyArg(`${bodyType}${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${api(`${op.wire ? `WireResult<${op.result}, O>` : op.result} | ${waitable(op.pointer)}`)};`,
    );
  } else if (streamable) {
    signatures.push(
      `${head}${generic}(${[...args, bodyArg(`${bodyType}${noStream}`, op.body.required), `options?: ${optionsType}`].join(', ')}): ${ret(result)};`,
    );
  }
  if (streamable) {
    // `stream` held in a variable (a boolean): any of the answers above.
    // Not generic: a generic options type would win TypeScript's first (subtype) pass over the literal overloads.
    // On a wire operation, options without a string wire first, then any options (a string among the answers).
    const pointer = op.pointer && op.result && op.body ? [waitable(op.pointer)] : [];
    const wide = (options, parsed) =>
      `${head}(${[...args, bodyArg(bodyType, op.body.required), `options?: ${options}`].join(', ')}): ${api([`Stream<${op.streamEvent}>`, parsed, ...pointer].join(' | '))};`;
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
    const overloads = signatures.map((s) => `${ind}${s}\n`).join('');
    return `${tsdoc}${overloads}${ind}${head}(${[...implArgs, `options?: ${implOptions}`].join(', ')}): ${api('unknown')} {\n${call('request')}${end}`;
  }
  if (op.pointer && !op.result) {
    // Answers only an async pointer: typed as such on every wire.
    uses.add('Waitable');
    return `${tsdoc}${ind}${head}(${[...implArgs, `options?: ${op.wire ? 'RequestOptions' : optionsType}`].join(', ')}): ${api(waitable(op.pointer))} {\n${call('request')}${end}`;
  }
  return `${tsdoc}${ind}${head}${generic}(${[...implArgs, `options?: ${optionsType}`].join(', ')}): ${ret(result)} {\n${call('request')}${end}`;
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

/**
 * src/generated/funcs/<tag>.ts: one standalone function per operation of the tag, with the `Oz` method's
 * parameters, return type and TSDoc, over an `OzCore`. Each imports its own operation's descriptor only, so a
 * bundle that imports one function carries one descriptor.
 */
export function renderFuncsFile(file) {
  const uses = new Set();
  const ops = file.classes.flatMap((node) => node.methods).sort((a, b) => funcName(a).localeCompare(funcName(b)));
  const bodies = ops.map((op) => renderMethod(op, uses, FUNCTION_FORM));
  let out = '';
  if (uses.has('APIPromise')) out += "import type { APIPromise } from '../../core/result/apiPromise.js';\n";
  out += "import { transportOf, type CoreClient } from '../../core/coreClient.js';\n";
  if (uses.has('Waitable')) out += "import type { Waitable } from '../../core/executions/executionPoller.js';\n";
  if (uses.has('listPages') || uses.has('PagePromise')) {
    out += `import { listPages${uses.has('PagePromise') ? ', type PagePromise' : ''} } from '../../core/result/pagination.js';\n`;
  }
  if (uses.has('RequestOptions')) out += "import type { RequestOptions } from '../../core/shared/requestOptions.js';\n";
  if (uses.has('Stream')) out += "import type { Stream } from '../../core/streams/stream.js';\n";
  const wire = ['DefaultRequestOptions', 'ParsedWireOptions', 'JsonRequestOptions', 'ListRequestOptions', 'StreamRequestOptions', 'WireResult'].filter((n) =>
    uses.has(n),
  );
  if (wire.length) out += `import type { ${wire.join(', ')} } from '../../core/result/resultTypes.js';\n`;
  const errorTypes = ['OperationError', 'WaitError'].filter((n) => uses.has(n));
  if (errorTypes.length) out += `import type { ${errorTypes.join(', ')} } from '../operationErrors.js';\n`;
  const descriptors = [...uses]
    .filter((u) => u.startsWith('op:'))
    .map((u) => u.slice(3))
    .sort();
  out += `import { ${descriptors.join(', ')} } from '../operations.js';\n`;
  if (uses.has('T')) out += "import type * as T from '../types.js';\n";
  out += '\n';
  return `${out}\n${bodies.join('\n')}`;
}

/**
 * src/funcs/index.ts, the entry of `oz-sdk/funcs`: OzCore and every standalone function, name by name (an entry
 * file never uses `export *`: the public surface test reads its list).
 */
export function renderFuncsEntry(model) {
  let out = doc(
    [
      '`oz-sdk/funcs`: the operations of the Oz API as standalone functions over a small client, {@link OzCore}, for',
      'programs that bundle one or two calls: a bundler keeps only the functions imported. `toolsExecute(core, tool,',
      'body, options)` is `oz.tools.execute(tool, body, options)`, with the same parameters, result and errors.',
      '',
      '@packageDocumentation',
    ],
    '',
  );
  out += "export { OzCore, type OzCoreOptions } from './ozCore.js';\n";
  out += "export type { CoreClient } from '../core/coreClient.js';\n";
  out += '// One function per operation of openapi.json, named after its `Oz` method.\n';
  for (const file of model.files) {
    const names = file.classes
      .flatMap((node) => node.methods)
      .map(funcName)
      .sort();
    out += `export { ${names.join(', ')} } from '../generated/funcs/${file.tag}.js';\n`;
  }
  return out;
}
