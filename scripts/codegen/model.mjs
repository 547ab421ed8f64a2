// Reads openapi.json into the model the renderer writes from: operations, and the resource tree that
// `x-oz-method` (`resource.sub.verb`) describes.

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const PLANES = { meta: 'meta', models: 'models', companies: 'companies', mcp: 'mcp', proxy: 'proxy' };
// Query parameters the SDK fills itself: `format` comes from the per-call options.
const SDK_QUERY = new Set(['format']);
// `x-oz-streaming`, spelled as the core's `Operation['streaming']` spells it: `optional` (`stream: true` in the
// body answers SSE), `always`, `chat` (OpenAI chunks); absent is `none`.
const STREAMING = new Set(['optional', 'always', 'chat']);

export const pascal = (s) => s.replace(/(^|[-_.\s])(\w)/g, (_, __, c) => c.toUpperCase());
const camel = (s) => pascal(s).replace(/^\w/, (c) => c.toLowerCase());

export function deref(doc, node) {
  let n = node;
  while (n && n.$ref) {
    const parts = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    n = parts.reduce((o, k) => o[k], doc);
  }
  return n;
}

const schemaName = (schema) => (schema?.$ref?.startsWith('#/components/schemas/') ? schema.$ref.split('/').pop() : undefined);

export function resourcesOf(doc) {
  const operations = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const sdk = op['x-oz-method'];
      if (!sdk) throw new Error(`${method.toUpperCase()} ${path}: no x-oz-method`);
      const segments = sdk.split('.');
      const verb = segments.pop();
      const tag = op.tags?.[0];
      if (!tag || op.tags.length !== 1) throw new Error(`${op.operationId}: needs exactly one tag`);
      const params = (op.parameters ?? []).map((p) => deref(doc, p));
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => {
        const p = params.find((x) => x.in === 'path' && x.name === m[1]);
        if (!p) throw new Error(`${op.operationId}: path parameter ${m[1]} is not described`);
        return { name: m[1], arg: camel(m[1]), description: p.description ?? '', slashes: p['x-oz-allow-slashes'] === true, deprecated: p.deprecated === true };
      });
      const query = params.filter((p) => p.in === 'query');
      const userQuery = query.filter((p) => !SDK_QUERY.has(p.name));
      const security = op.security ?? doc.security ?? [];
      const schemes = new Set(security.flatMap((s) => Object.keys(s)));
      const auth = schemes.size === 0 ? 'none' : schemes.has('apiKeyHeader') ? 'bearer-or-api-key' : 'bearer';
      const ok = op.responses['200'] ?? op.responses['201'];
      const accepted = op.responses['202'];
      const jsonOf = (res) => res && deref(doc, res).content?.['application/json']?.schema;
      const requestBody = op.requestBody ? deref(doc, op.requestBody) : undefined;
      const bodySchema = requestBody?.content?.['application/json']?.schema;
      const streaming = op['x-oz-streaming'] ?? 'none';
      if (streaming !== 'none' && !STREAMING.has(streaming)) throw new Error(`${op.operationId}: x-oz-streaming must be one of ${[...STREAMING].join(', ')}`);
      const okSchema = jsonOf(ok);
      const okName = schemaName(okSchema);
      const listItem = okName && isList(doc, okName) ? schemaName(doc.components.schemas[okName].properties.data.items) : undefined;
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        tag,
        resource: segments,
        verb,
        summary: op.summary ?? '',
        description: op.description ?? '',
        plane: PLANES[tag] ?? 'execution',
        auth,
        // openapi.json's `x-oz-idempotent` marks the operations that start a run (a repeat of its key answers 409).
        startsRun: op['x-oz-idempotent'] === true,
        // `deprecated` of the operation and of its parameters: `@deprecated` in the TSDoc, a warning on first use.
        deprecated: op.deprecated === true,
        deprecatedParams: params.filter((p) => p.deprecated === true && ['path', 'query', 'header'].includes(p.in)).map((p) => ({ name: p.name, in: p.in })),
        // The one rule for the wire: an operation that takes `format` negotiates the wire of its answers and errors.
        wire: query.some((p) => p.name === 'format'),
        yamlBody: Boolean(requestBody?.content?.['text/yaml']),
        streaming,
        paged: Boolean(listItem),
        listItem,
        pathParams,
        userQuery,
        body: requestBody ? { type: typeOfSchema(bodySchema), required: requestBody.required === true } : undefined,
        // types.ts writes this body's type with `format?: never`: the per-call option chooses (and types) the wire.
        formatFreeBody: query.some((p) => p.name === 'format') && deref(doc, bodySchema)?.properties?.format ? schemaName(bodySchema) : undefined,
        // A 202 with a body is an async pointer; a 202 without one (an MCP notification) answers nothing.
        result: okSchema ? `${typeOfSchema(okSchema)}${accepted && !jsonOf(accepted) ? ' | undefined' : ''}` : accepted ? undefined : 'void',
        pointer: accepted && jsonOf(accepted) ? typeOfSchema(jsonOf(accepted)) : undefined,
        streamEvent: streaming === 'none' ? undefined : streamEventOf(doc, ok),
      });
    }
  }
  operations.sort((a, b) => a.id.localeCompare(b.id));

  // The resource tree: top-level resources, each with its methods and sub-resources.
  const root = { path: [], children: new Map(), methods: [] };
  for (const op of operations) {
    let node = root;
    for (const seg of op.resource) {
      if (!node.children.has(seg)) node.children.set(seg, { path: [...node.path, seg], children: new Map(), methods: [], tag: op.tag });
      node = node.children.get(seg);
    }
    if (node.methods.some((m) => m.verb === op.verb)) throw new Error(`${op.resource.join('.')}.${op.verb} is defined twice`);
    node.methods.push(op);
  }
  const files = new Map();
  const visit = (node) => {
    for (const child of node.children.values()) {
      const tag = child.methods[0]?.tag ?? [...child.children.values()][0]?.methods[0]?.tag ?? child.tag;
      if (!files.has(tag)) files.set(tag, { tag, classes: [] });
      files.get(tag).classes.push(child);
      visit(child);
    }
  };
  visit(root);
  for (const file of files.values()) file.classes.sort((a, b) => b.path.length - a.path.length || a.path.join('.').localeCompare(b.path.join('.')));
  const schemaNames = Object.keys(doc.components.schemas);
  for (const node of [...files.values()].flatMap((f) => f.classes)) {
    const name = className(node);
    if (schemaNames.includes(name)) throw new Error(`resource class ${name} collides with a schema of the same name`);
  }
  const formatFreeBodies = new Set(operations.map((o) => o.formatFreeBody).filter(Boolean));
  return { operations, root, formatFreeBodies, files: [...files.values()].sort((a, b) => a.tag.localeCompare(b.tag)) };
}

// Resources a hand-written class of src/resources/ extends: the generated class is its base, named so (one name,
// one class: the client's `Executions` is the hand-written one).
const EXTENDED_BY_HAND = new Set(['executions']);

export const className = (node) => node.path.map(pascal).join('') + (node.path.length === 1 && EXTENDED_BY_HAND.has(node.path[0]) ? 'Base' : '');

function isList(doc, name) {
  const s = doc.components.schemas[name];
  return s?.properties?.data?.type === 'array' && 'next_cursor' in (s.properties ?? {});
}

// A TypeScript type expression for a schema: the named alias for a component, `unknown` for an open one.
function typeOfSchema(schema) {
  if (!schema) return undefined;
  const name = schemaName(schema);
  if (name) return `T.${name}`;
  if (schema.type === 'object') return 'Record<string, unknown>';
  if (schema.type === 'string') return 'string';
  return 'unknown';
}

function streamEventOf(doc, res) {
  // Beside a JSON form, the stream is an alternative form of the answer (see info.description of openapi.json).
  const answer = deref(doc, res);
  const media = answer?.content?.['text/event-stream'] ?? answer?.['x-oz-alternative-content']?.['text/event-stream'];
  const name = schemaName(media?.schema?.contentSchema);
  if (!name) throw new Error('a streaming operation needs text/event-stream with a contentSchema');
  return `T.${name}`;
}
