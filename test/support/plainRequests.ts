/**
 * Every operation of openapi.json as one plain request with a success answer, derived from the document: the
 * operation's JSON request body example, its first 2xx status, and a value for each path parameter (a name of the
 * demo seed, or a resource made first through the operation that creates it). The tours of every operation
 * (test/testing/contract/operations.test.ts, test/peers/operationTour.ts) and the safe-writes cases
 * (test/reliability/safeWrites.test.ts) are built on it: a new operation is toured without editing them.
 */
import openapi from '../../openapi.json' with { type: 'json' };
import { OPERATIONS, type OperationId } from '../../src/generated/operations.js';

type Json = Record<string, unknown>;
interface RawOperation {
  operationId: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, unknown>;
  'x-oz-safe-write'?: boolean;
}
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const DOC = openapi as unknown as Json & { paths: Record<string, Record<string, RawOperation>> };

/** One plain request of an operation. */
export interface PlainRequest {
  readonly operationId: OperationId;
  readonly method: string;
  /** The path with its parameters filled in (encoded), no query. */
  readonly path: string;
  /** The value of each path parameter, by name, as given (not encoded). */
  readonly params: Readonly<Record<string, string>>;
  /** The JSON body example of openapi.json, when the operation takes a body. */
  readonly body?: unknown;
  /** The first 2xx status the operation describes: what the plain request answers. */
  readonly expect: number;
  /** The answer is a stream (`x-oz-streaming: always`): read it as server-sent events. */
  readonly stream: boolean;
  /** The operation takes no key (`security: []`). */
  readonly open: boolean;
}

/** Makes a resource: sends a plain request (on the JSON wire) and answers its parsed JSON body. */
export type MakeResource = (request: PlainRequest) => Promise<Json>;

// Path parameters that name what the demo seed holds (src/testing/fixtures/), by name; `provider` any provider (not
// `crm`, which a seeded tool needs unlinked in the tours): linkConnection links it, before the proxy operations.
const SEEDED: Readonly<Record<string, string>> = {
  model: 'oz-chat',
  tool: 'echo',
  agent: 'writer',
  campus: 'acme',
  provider: 'maps',
  path: 'contacts',
};
// Path parameters whose resource no `POST` on the parent collection makes: the operation that makes one, and the
// field of its answer that names it. Keyed by the path up to the parameter, so an operation under it is covered.
const MADE_BY: Readonly<Record<string, { operationId: OperationId; field: string }>> = {
  '/v1/executions/{id}': { operationId: 'executeAgent', field: 'execution_id' },
  '/v1/traces/{execution_id}': { operationId: 'executeTool', field: 'execution_id' },
};

const deref = (node: Json): Json => {
  let n = node;
  while (typeof n.$ref === 'string')
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((o, k) => o[k] as Json, DOC);
  return n;
};

function rawOperation(operationId: OperationId): RawOperation {
  const op = OPERATIONS[operationId];
  return DOC.paths[op.path]![op.method.toLowerCase()]!;
}

/** Every operationId of openapi.json, in the document's order. */
export const OPERATION_IDS_IN_ORDER: readonly OperationId[] = Object.values(DOC.paths).flatMap((item) =>
  METHODS.flatMap((method) => (item[method] ? [item[method].operationId as OperationId] : [])),
);

/** The safe writes: every operation openapi.json marks `x-oz-safe-write: true`. */
export const SAFE_WRITES: readonly OperationId[] = OPERATION_IDS_IN_ORDER.filter((id) => rawOperation(id)['x-oz-safe-write'] === true);

/** Whether openapi.json describes `status` among the answers of `operationId`. */
export function describesStatus(operationId: OperationId, status: number): boolean {
  return rawOperation(operationId).responses[String(status)] !== undefined;
}

/** The JSON body example of an operation, or `undefined` when it takes no body. */
function bodyExample(raw: RawOperation): unknown {
  if (!raw.requestBody) return undefined;
  const content = deref(raw.requestBody).content as Record<string, { example?: unknown }>;
  const example = content['application/json']?.example;
  if (example === undefined) throw new Error(`${raw.operationId}: no JSON request body example in openapi.json`);
  return structuredClone(example);
}

let made = 0;
/** The request without its path filled in. */
function template(operationId: OperationId): PlainRequest {
  const op = OPERATIONS[operationId];
  const raw = rawOperation(operationId);
  const expect = Number(Object.keys(raw.responses).find((s) => s.startsWith('2')));
  const body = bodyExample(raw) as Json | undefined;
  // A name is unique in its collection (a workflow's): each request makes its own, the example's name numbered.
  if (typeof body?.name === 'string') body.name = `${body.name}-${++made}`;
  return { operationId, method: op.method, path: op.path, params: {}, body, expect, stream: op.streaming === 'always', open: op.auth === 'none' };
}

/** The operation that makes the resource a path parameter names: the `POST` on the path up to it, else MADE_BY. */
function makerOf(upTo: string, name: string): { operationId: OperationId; field: string } {
  if (MADE_BY[upTo]) return MADE_BY[upTo];
  const collection = upTo.slice(0, upTo.lastIndexOf('/'));
  const create = DOC.paths[collection]?.post;
  if (!create) throw new Error(`no value for the path parameter {${name}} of ${upTo}: add it to SEEDED or MADE_BY (test/support/plainRequests.ts)`);
  return { operationId: create.operationId as OperationId, field: name === 'name' ? 'name' : 'id' };
}

/**
 * The plain request of `operationId`, its path filled in: a resource a parameter names is made first through
 * `make` (a fresh one per request).
 */
export async function plainRequest(operationId: OperationId, make: MakeResource): Promise<PlainRequest> {
  const request = template(operationId);
  let path = request.path;
  const params: Record<string, string> = {};
  for (const match of request.path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    const upTo = request.path.slice(0, match.index + match[0].length);
    let value = SEEDED[name];
    if (value === undefined) {
      const maker = makerOf(upTo, name);
      value = String((await make(await plainRequest(maker.operationId, make)))[maker.field]);
    }
    params[name] = value;
    path = path.replace(match[0], encodeURIComponent(value));
  }
  return { ...request, path, params };
}
