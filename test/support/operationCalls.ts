/**
 * Every operation of openapi.json as a user calls it: the generated client method (found by `x-oz-method`) with
 * its positional arguments in the generator's order (path parameters, query, body, options), and a value for
 * every parameter it declares, derived from the parameter's schema (enums, integer bounds, examples). A new
 * operation of the document is covered by every test built on this, without writing a test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestOptions } from '../../src/core/shared/requestOptions.js';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { resourcesOf } from '../../scripts/codegen/model.mjs';

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
  example?: unknown;
  deprecated?: boolean;
}
interface ModelOperation {
  id: string;
  method: string;
  path: string;
  resource: string[];
  verb: string;
  pathParams: { name: string; slashes: boolean }[];
  streaming: string;
  userQuery: Parameter[];
  body?: { required: boolean };
}

const root = fileURLToPath(new URL('../..', import.meta.url));
/** openapi.json, parsed. */
export const DOC = JSON.parse(readFileSync(`${root}/openapi.json`, 'utf8')) as Json & {
  paths: Record<string, Record<string, Json & { parameters?: Json[]; requestBody?: Json }>>;
};

function deref<T>(node: T): T {
  let n = node as Json | undefined;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, DOC);
  }
  return n as T;
}

/**
 * A value a schema admits, chosen to differ from its default (so that arriving "as given" is not the server's
 * default): an example of the document first, then the last enum value, an integer inside the bounds, a
 * string of the allowed length, an object with every declared property. Booleans are `false`, so `stream` and
 * `async` keep a call a plain request.
 */
export function sampleOf(schemaIn: Schema | undefined, name: string, depth = 0): unknown {
  const schema = deref(schemaIn ?? {});
  if (schema.example !== undefined && typeof schema.example !== 'object') return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && typeof schema.examples[0] !== 'object') return schema.examples[0];
  if (schema.enum) return schema.enum.filter((v) => v !== schema.default).at(-1) ?? schema.enum[0];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, name, depth)));
  const alternative = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (alternative) return sampleOf(alternative, name, depth);
  switch (schema.type) {
    case 'integer': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 10;
      const value = min + 1 === schema.default ? min + 2 : min + 1;
      return Math.min(value, max);
    }
    case 'number':
      return (schema.minimum ?? 0) + 1.5;
    case 'boolean':
      return false;
    case 'array':
      return depth > 3 ? [] : [sampleOf(schema.items, name, depth + 1)];
    case 'string': {
      if (schema.format === 'date-time') return '2026-11-23T10:00:00Z';
      let text = `${name}-value`;
      if (schema.maxLength !== undefined) text = text.slice(0, schema.maxLength);
      return text.padEnd(schema.minLength ?? 0, 'x');
    }
    default: {
      if (depth > 3 || !schema.properties) return schema.type === 'object' ? { [`${name}_key`]: `${name}-value` } : `${name}-value`;
      return Object.fromEntries(Object.entries(schema.properties).map(([key, sub]) => [key, sampleOf(sub, key, depth + 1)]));
    }
  }
}

/** Every parameter and body of one call, as given. */
export interface CallValues {
  path: Record<string, string>;
  /** The operation's own query parameters (the `query` argument). */
  query: Record<string, unknown>;
  body: unknown;
  /** Per-call options: the wire (`format`), the `x-trace-id` (`idempotencyKey`), other header parameters. */
  options: RequestOptions;
}

/** One operation of openapi.json with what a test needs to call it through the client. */
export interface OperationCall {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  /** `resource.sub.verb`, where the method sits on the client. */
  readonly clientMethod: string;
  readonly pathParams: readonly { name: string; slashes: boolean }[];
  /** Every parameter the operation declares (path, query, header), resolved. */
  readonly parameters: readonly Parameter[];
  readonly hasBody: boolean;
  /** A value for every parameter and the body. */
  sample(): CallValues;
  /** Calls the client's method for this operation with those values. */
  call(client: object, values: CallValues): PromiseLike<unknown>;
}

// Parameters the SDK takes as per-call options rather than as arguments (scripts/codegen/model.mjs: SDK_QUERY).
const FORMAT = 'format';
const TRACE_ID = 'x-trace-id';

function sampleValues(op: ModelOperation, parameters: Parameter[], bodySchema: Schema | undefined, bodyExample: unknown): CallValues {
  const values: CallValues = { path: {}, query: {}, body: undefined, options: {} };
  const headers: Record<string, string> = {};
  for (const p of parameters) {
    const value = p.example ?? sampleOf(p.schema, p.name);
    if (p.in === 'path') {
      const slashes = op.pathParams.find((x) => x.name === p.name)?.slashes;
      // Characters that need encoding, so that the test sees them arrive decoded as given.
      values.path[p.name] = slashes ? `deep/${p.name} ü/x` : `${p.name} ü:1`;
    } else if (p.in === 'query' && p.name === FORMAT) {
      // A stream-only method takes no wire (StreamRequestOptions): its events are the wire.
      if (op.streaming !== 'always') values.options.format = 'yaml';
    } else if (p.in === 'query') {
      values.query[p.name] = value;
    } else if (p.in === 'header' && p.name.toLowerCase() === TRACE_ID) {
      values.options.idempotencyKey = `trace-${op.id}`;
    } else if (p.in === 'header') {
      headers[p.name] = String(value);
    }
  }
  if (Object.keys(headers).length) values.options.headers = headers;
  if (bodySchema) {
    const sampled = sampleOf(bodySchema, 'body');
    values.body =
      typeof sampled === 'object' && sampled !== null && typeof bodyExample === 'object' && bodyExample !== null ? { ...bodyExample, ...sampled } : sampled;
  }
  return values;
}

/** Every operation of openapi.json, sorted by operationId. */
export function operationCalls(): OperationCall[] {
  const model = resourcesOf(DOC) as { operations: ModelOperation[] };
  return model.operations.map((op) => {
    const item = DOC.paths[op.path]!;
    const raw = item[op.method.toLowerCase()]!;
    const parameters = [...((item.parameters as Json[] | undefined) ?? []), ...(raw.parameters ?? [])].map((p) => deref(p) as unknown as Parameter);
    const requestBody = raw.requestBody ? deref(raw.requestBody) : undefined;
    const media = (requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
    const bodySchema = media?.schema as Schema | undefined;
    const hasQueryArg = op.userQuery.length > 0;
    return {
      id: op.id,
      method: op.method,
      path: op.path,
      clientMethod: [...op.resource, op.verb].join('.'),
      pathParams: op.pathParams,
      parameters,
      hasBody: op.body !== undefined,
      sample: () => sampleValues(op, parameters, bodySchema, media?.example),
      call(client, values) {
        let target = client as Record<string, unknown>;
        for (const segment of op.resource) target = target[segment] as Record<string, unknown>;
        const method = target[op.verb] as (...args: unknown[]) => PromiseLike<unknown>;
        const args: unknown[] = op.pathParams.map((p) => values.path[p.name]);
        if (hasQueryArg) args.push(values.query);
        if (op.body) args.push(values.body);
        args.push(values.options);
        return method.apply(target, args);
      },
    };
  });
}
