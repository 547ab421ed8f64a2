import { invalidParams } from '../contract/errors.js';
import { isPlainObject } from '../support/plainObject.js';
import { CONTROL_OPENAPI } from './controlOpenapi.js';

/**
 * The control plane's operations an agent drives as MCP tools, by operationId, with each tool's name. Everything
 * else of a tool (its description, input and output schemas, route) is read from {@link CONTROL_OPENAPI}.
 */
export const CONTROL_TOOL_NAMES = {
  reset: 'reset',
  captureBaseline: 'capture_baseline',
  loadFixtures: 'load_fixtures',
  addStub: 'add_stub',
  listStubs: 'list_stubs',
  cancelStub: 'remove_stub',
  clearStubs: 'clear_stubs',
  addFault: 'add_fault',
  listFaults: 'list_faults',
  cancelFault: 'remove_fault',
  clearFaults: 'clear_faults',
  setChaos: 'set_chaos',
  getChaos: 'get_chaos',
  clearChaos: 'clear_chaos',
  getJournal: 'read_journal',
  verifyJournal: 'verify_journal',
  clearJournal: 'clear_journal',
  listUnused: 'list_unused',
  getCoverage: 'read_coverage',
  getClock: 'get_clock',
  setClock: 'set_clock',
  advanceClock: 'advance_clock',
  waitIdle: 'wait_idle',
  addKey: 'add_key',
  listKeys: 'list_keys',
  listSessions: 'list_sessions',
  createSession: 'open_session',
  endSession: 'close_session',
} as const;

/** The one tool that is no route of the control plane: the server's URLs and keys. */
export const SERVER_INFO_TOOL = 'server_info';

/** A JSON Schema of an object (an MCP tool's input or output schema). */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** An MCP tool over one route of the control plane. */
export interface ControlTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ObjectSchema;
  /** The schema of its 2xx answer, when that is an object schema. */
  readonly outputSchema?: ObjectSchema;
  readonly operationId: string;
  readonly method: string;
  /** The route after `/_oz`, with its `{parameters}`. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
  /** Whether a session has this route too (`/_oz/sessions/{session}/...`): a session's MCP server offers it. */
  readonly inSessions: boolean;
}

/** A request to the control plane: method, the route after `/_oz` (query included) and the JSON body. */
export interface ControlRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: Readonly<Record<string, unknown>>;
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: unknown;
  readonly description?: string;
}

interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Readonly<Record<string, { readonly schema: unknown }>> };
  readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, { readonly schema: unknown }>> }>>;
  readonly 'x-oz-in-sessions'?: boolean;
}

const SCHEMAS = CONTROL_OPENAPI.components.schemas as unknown as Readonly<Record<string, unknown>>;
const REF = '#/components/schemas/';

/** A schema of the document with every `$ref` replaced by its target: a tool's schema stands alone. */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (!isPlainObject(schema)) return schema;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(REF)) return resolved(SCHEMAS[ref.slice(REF.length)]);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolved(v)]));
}

function objectSchema(schema: unknown): ObjectSchema | undefined {
  return isPlainObject(schema) && schema.type === 'object' ? ({ properties: {}, ...schema } as ObjectSchema) : undefined;
}

/** An answer's schema as an MCP output schema (an object's): an `allOf` or `oneOf` of objects is one too. */
function outputSchemaOf(schema: unknown): ObjectSchema | undefined {
  if (!isPlainObject(schema)) return undefined;
  const parts = schema.allOf ?? schema.oneOf;
  if (schema.type === undefined && Array.isArray(parts) && parts.every((part) => outputSchemaOf(part) !== undefined))
    return { type: 'object', properties: {}, ...schema };
  return objectSchema(schema);
}

/** The input schema: the path and query parameters beside the JSON body's fields. */
function inputSchemaOf(operation: Operation, bodySchema: ObjectSchema | undefined): ObjectSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of operation.parameters ?? []) {
    properties[p.name] = { ...(resolved(p.schema ?? { type: 'string' }) as object), ...(p.description ? { description: p.description } : {}) };
    if (p.required) required.push(p.name);
  }
  const { properties: fields = {}, required: requiredFields = [], type: _, ...rest } = bodySchema ?? { type: 'object', properties: {} };
  for (const [name, schema] of Object.entries(fields)) {
    if (name in properties) throw new Error(`${operation.operationId}: the body field ${name} is also a parameter`);
    properties[name] = schema;
  }
  if (operation.requestBody?.required) required.push(...requiredFields);
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...(bodySchema ? rest : { additionalProperties: false }) };
}

function toolOf(name: string, path: string, method: string, operation: Operation): ControlTool {
  const bodySchema = operation.requestBody ? objectSchema(resolved(operation.requestBody.content['application/json']?.schema)) : undefined;
  if (operation.requestBody && !bodySchema) throw new Error(`${operation.operationId}: the body is no JSON object`);
  const success = operation.responses['201'] ?? operation.responses['200'];
  const outputSchema = outputSchemaOf(resolved(success?.content?.['application/json']?.schema));
  const parameters = operation.parameters ?? [];
  return {
    name,
    description: `${operation.summary} (${method.toUpperCase()} ${path})`,
    inputSchema: inputSchemaOf(operation, bodySchema),
    ...(outputSchema ? { outputSchema } : {}),
    operationId: operation.operationId,
    method: method.toUpperCase(),
    path: path.slice('/_oz'.length),
    pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
    queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
    hasBody: operation.requestBody !== undefined,
    inSessions: operation['x-oz-in-sessions'] === true,
  };
}

function deriveTools(): readonly ControlTool[] {
  const names: Readonly<Record<string, string>> = CONTROL_TOOL_NAMES;
  const tools: ControlTool[] = [];
  for (const [path, item] of Object.entries(CONTROL_OPENAPI.paths)) {
    for (const [method, operation] of Object.entries(item as Readonly<Record<string, Operation>>)) {
      const name = Object.hasOwn(names, operation.operationId) ? names[operation.operationId] : undefined;
      if (name !== undefined) tools.push(toolOf(name, path, method, operation));
    }
  }
  const missing = Object.keys(names).filter((id) => !tools.some((t) => t.operationId === id));
  if (missing.length) throw new Error(`No control-plane operation ${missing.join(', ')}`);
  return tools.sort((a, b) => Object.keys(names).indexOf(a.operationId) - Object.keys(names).indexOf(b.operationId));
}

let derived: readonly ControlTool[] | null = null;

/** The tools of a server's MCP server, or of a session's (the routes a session has). */
export function controlTools(scope: 'server' | 'session'): readonly ControlTool[] {
  derived ??= deriveTools();
  return scope === 'server' ? derived : derived.filter((t) => t.inSessions);
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The control-plane request of a tool call: path parameters into the route (a missing one is 422
 * `invalid_params`), query parameters into the query, every other argument into the JSON body. `prefix` puts the
 * route under a session (`/sessions/ses_...`).
 */
export function controlRequest(tool: ControlTool, args: unknown, prefix = ''): ControlRequest {
  if (args !== undefined && !isPlainObject(args)) throw invalidParams(`The arguments of ${tool.name} must be an object.`);
  const rest: Record<string, unknown> = { ...args };
  let path = tool.path;
  for (const name of tool.pathParams) {
    const value = rest[name];
    if (typeof value !== 'string' || value === '') throw invalidParams(`${name} is required (a string).`, [name]);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
    delete rest[name];
  }
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    if (rest[name] !== undefined) query.set(name, queryValue(rest[name]));
    delete rest[name];
  }
  const search = query.toString() ? `?${query.toString()}` : '';
  if (!tool.hasBody) {
    const extra = Object.keys(rest);
    if (extra.length)
      throw invalidParams(
        `${extra.join(', ')} ${extra.length === 1 ? 'is not an argument' : 'are not arguments'} of ${tool.name} (known: ${[...tool.pathParams, ...tool.queryParams].join(', ') || 'none'}).`,
      );
    return { method: tool.method, path: `${prefix}${path}${search}` };
  }
  return { method: tool.method, path: `${prefix}${path}${search}`, body: rest };
}
