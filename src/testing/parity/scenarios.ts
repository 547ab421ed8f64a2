import { fillPathTemplate } from '../../generated/pathTemplate.js';
import { ROUTE_BY_ID } from '../../generated/routes.js';
import type { OperationId } from '../../generated/operations.js';
import { OPENAPI_DOCUMENT, SERVER_OPERATIONS, serverOperationNamed, type OperationInfo } from '../contract/operations.js';
import { isPlainObject } from '../support/plainObject.js';
import { resolveRef } from '../pipeline/stubs/stubAnswerCheck.js';
import { send, type ParityAnswer, type ParityEndpoint, type ParityRequest } from './exchange.js';
import { PROVIDER, WAITING_TOOL, type ParityNames } from './names.js';

const resolve = (node: unknown): Json => resolveRef(node) ?? {};

type Json = Record<string, unknown>;

/** What a scenario compares of an operation. */
export type Behaviour =
  'success' | 'no-key' | 'unknown-name' | 'missing-field' | 'unknown-format' | `wire:${string}` | 'stream' | 'async' | 'async-wait' | 'replay';

/** What a scenario needs a side to have: `tool`, `agent`, `workflow`, `company`, `waiting-tool`, `model:<id>`. */
export type Need = string;

/** One side of a run as a scenario uses it: its endpoint and what was made on it. */
export interface SideContext {
  readonly endpoint: ParityEndpoint;
  readonly names: ParityNames;
  /** A new name, unique to this run and side (`parity-1a2b3c-4`). */
  fresh(): string;
  /** What the side answered for the tool's card (its `input_schema`), read once. */
  toolInput(): Promise<Json>;
  /** Done once per side (a connection linked). */
  once(key: string, work: () => Promise<void>): Promise<void>;
}

/** What a scenario's last request answered, and whether the resource had stopped changing. */
export interface Played {
  readonly answer: ParityAnswer;
  readonly settled: boolean;
}

/** One scenario of the suite. */
export interface Scenario {
  /** `operationId:behaviour`. */
  readonly id: string;
  readonly operationId: OperationId;
  readonly behaviour: Behaviour;
  readonly needs: readonly Need[];
  /** Its answer is a list: the elements of `data` are compared by keys and types. */
  readonly list: boolean;
  play(side: SideContext): Promise<Played>;
}

/** A request that set up a scenario did not answer as it must. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/** Statuses of a record that is still changing (a run not finished, an item on its walk). */
const UNSETTLED: ReadonlySet<unknown> = new Set(['queued', 'running', 'active']);
/** How long a changing resource is polled before it is compared by form only. */
export const SETTLE_MS = 15_000;
const POLL_MS = 50;

function rawOperation(op: OperationInfo): Json {
  return ((OPENAPI_DOCUMENT.paths as Json)[op.path] as Json)[op.method.toLowerCase()] as Json;
}

/** The kind of each path parameter: its component's name (`Tool`, `ItemId` ...) or, inline, its own name. */
function pathParams(op: OperationInfo): Array<{ name: string; kind: string }> {
  return ((rawOperation(op).parameters ?? []) as Json[])
    .map((p) => ({ kind: typeof p.$ref === 'string' ? p.$ref.slice(p.$ref.lastIndexOf('/') + 1) : String(p.name), p: resolve(p) }))
    .filter(({ p }) => p.in === 'path')
    .map(({ kind, p }) => ({ name: String(p.name), kind }));
}

function requestSchema(op: OperationInfo): Json | null {
  const body = resolve(rawOperation(op).requestBody);
  const media = (body.content as Json | undefined)?.['application/json'] as Json | undefined;
  return media ? resolve(media.schema) : null;
}

function requestExample(op: OperationInfo): Json | undefined {
  const media = ((resolve(rawOperation(op).requestBody).content as Json | undefined)?.['application/json'] as Json | undefined) ?? {};
  return isPlainObject(media.example) ? structuredClone(media.example) : undefined;
}

const responses = (op: OperationInfo) => (rawOperation(op).responses ?? {}) as Json;
const FORMATS = (resolve({ $ref: '#/components/schemas/Format' }).enum ?? []) as string[];

/** A sample value of a JSON schema (a tool's input field). */
function sample(schema: Json): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'parity';
  }
}

/** A valid input of the side's tool, from its card: its required fields with sample values. */
export function toolInputOf(card: unknown): Json {
  const schema = isPlainObject(card) && isPlainObject(card.input_schema) ? card.input_schema : {};
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : isPlainObject(card) && Array.isArray(card.required) ? card.required : [];
  return Object.fromEntries(required.map((name) => [String(name), name === 'ms' ? 1 : sample(isPlainObject(properties[name]) ? properties[name] : {})]));
}

async function expect2xx(side: SideContext, request: ParityRequest, what: string): Promise<Json> {
  const answer = await send(side.endpoint, request);
  if (answer.status < 200 || answer.status > 299 || !isPlainObject(answer.value))
    throw new SetupError(`${what} answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`);
  return answer.value;
}

const opNamed = (id: string) => serverOperationNamed(id)!;
const pathOf = (op: OperationInfo, values: Readonly<Record<string, string>>) => {
  const template = ROUTE_BY_ID[op.id].path;
  return fillPathTemplate(template, (n) =>
    template.slashParams.includes(n) ? values[n]!.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(values[n]!),
  );
};

/** The collection operation that creates what a path parameter names (`POST /v1/schedules` for `ScheduleId`). */
function creatorOf(op: OperationInfo): OperationInfo | undefined {
  const parent = op.path.slice(0, op.path.lastIndexOf('/{'));
  return SERVER_OPERATIONS.find((o) => o.method === 'POST' && o.path === parent && '201' in responses(o));
}

/** A body for an operation on a side: its openapi.json example, fitted to the side's names. */
async function bodyOf(op: OperationInfo, side: SideContext): Promise<Json | undefined> {
  const example = requestExample(op);
  if (example === undefined) return undefined;
  const schema = requestSchema(op) ?? {};
  const props = (schema.properties ?? {}) as Json;
  if (pathParams(op).some((p) => p.kind === 'Tool')) return side.toolInput();
  if ('agent' in props && 'agent' in example) example.agent = side.names.agent;
  if ('building' in props) example.building = side.names.building;
  if ('201' in responses(op) && 'name' in props) example.name = side.fresh();
  if (isPlainObject(example.target) && example.target.kind === 'tool') {
    example.target = { ...example.target, name: side.names.tool };
    example.input = await side.toolInput();
  }
  return example;
}

/** A record made for a scenario: a new one per scenario, so each stands alone. */
async function created(op: OperationInfo, side: SideContext): Promise<Json> {
  return expect2xx(side, { method: 'POST', path: pathOf(op, { campus: side.names.company }), body: await bodyOf(op, side) }, `${op.id} (setup)`);
}

/** A finished run of the agent (its execution id). */
async function finishedRun(side: SideContext): Promise<string> {
  const op = opNamed('executeAgent');
  const result = await expect2xx(side, { method: 'POST', path: op.path, body: await bodyOf(op, side) }, 'executeAgent (setup)');
  return String(result.execution_id);
}

/** A run still going (the waiting tool, asked to wait a minute): its execution id. */
async function runningRun(side: SideContext): Promise<string> {
  const pointer = await expect2xx(
    side,
    { method: 'POST', path: pathOf(opNamed('executeTool'), { tool: WAITING_TOOL }), body: { ms: 60_000, async: true } },
    `executeTool ${WAITING_TOOL} (setup)`,
  );
  return String(pointer.execution_id);
}

interface PathPlan {
  readonly needs: readonly Need[];
  value(side: SideContext): Promise<string>;
}

/** How a path parameter of each kind gets a value, and what it needs. */
function planOf(op: OperationInfo, kind: string): PathPlan | null {
  switch (kind) {
    case 'Campus':
      return { needs: ['company'], value: async (s) => s.names.company };
    case 'Tool':
      return { needs: ['tool'], value: async (s) => s.names.tool };
    case 'Agent':
      return { needs: ['agent'], value: async (s) => s.names.agent };
    case 'WorkflowName':
      return op.method === 'DELETE'
        ? { needs: ['agent'], value: async (s) => String((await created(creatorOf(op)!, s)).name) }
        : { needs: ['workflow'], value: async (s) => s.names.workflow };
    case 'ScheduleId':
    case 'ItemId': {
      const creator = creatorOf(op)!;
      return { needs: kind === 'ItemId' ? ['company'] : ['tool'], value: async (s) => String((await created(creator, s)).id) };
    }
    case 'ExecutionId':
    case 'TraceExecutionId':
      return op.path.endsWith('/cancel') ? { needs: ['waiting-tool'], value: runningRun } : { needs: ['agent'], value: finishedRun };
    case 'Provider':
      return {
        needs: [],
        value: async (s) => {
          if (op.plane === 'proxy')
            await s.once(
              'link',
              async () =>
                void (await expect2xx(
                  s,
                  { method: 'POST', path: pathOf(opNamed('linkConnection'), { provider: PROVIDER }), body: requestExample(opNamed('linkConnection')) },
                  'linkConnection (setup)',
                )),
            );
          return PROVIDER;
        },
      };
    case 'ProxyPath':
      return { needs: [], value: async () => 'contacts' };
    case 'model': {
      const model = String(requestExample(opNamed('createChatCompletion'))?.model);
      return { needs: [`model:${model}`], value: async () => model };
    }
    default:
      return null;
  }
}

/** The path parameter kinds whose unknown value answers a 404 of its kind. */
const NAMED_KINDS: ReadonlySet<string> = new Set([
  'Campus',
  'Tool',
  'Agent',
  'WorkflowName',
  'ScheduleId',
  'ExecutionId',
  'TraceExecutionId',
  'ItemId',
  'model',
]);

/** Every path parameter kind of openapi.json that has no plan (a test holds this empty). */
export function unplannedParameters(): string[] {
  return SERVER_OPERATIONS.flatMap((op) =>
    pathParams(op)
      .filter((p) => planOf(op, p.kind) === null)
      .map((p) => `${op.id} {${p.name}} (${p.kind})`),
  );
}

async function settle(side: SideContext, request: ParityRequest, first: ParityAnswer): Promise<Played> {
  let answer = first;
  const until = Date.now() + SETTLE_MS;
  while (request.method === 'GET' && isPlainObject(answer.value) && UNSETTLED.has(answer.value.status)) {
    if (Date.now() > until) return { answer, settled: false };
    await new Promise((r) => setTimeout(r, POLL_MS));
    answer = await send(side.endpoint, request);
  }
  return { answer, settled: true };
}

interface Variant {
  readonly behaviour: Behaviour;
  /** Changes the valid request (its path values already filled in). */
  readonly shape?: (request: ParityRequest, side: SideContext) => ParityRequest | Promise<ParityRequest>;
  /** Sends the request twice with one trace id, and compares the second answer. */
  readonly twice?: boolean;
  /** Waits for the run the answer points to, and compares the finished record. */
  readonly wait?: boolean;
  readonly unknownParam?: string;
  readonly needs?: readonly Need[];
}

function scenario(op: OperationInfo, variant: Variant): Scenario {
  const params = pathParams(op);
  const plans = params.map((p) => ({ ...p, plan: planOf(op, p.kind)! }));
  const bodyNeeds: Need[] = [];
  const example = requestExample(op);
  if (typeof example?.model === 'string') bodyNeeds.push(`model:${example.model}`);
  if (example && 'agent' in example) bodyNeeds.push('agent');
  if (params.some((p) => p.kind === 'Tool') || isPlainObject(example?.target)) bodyNeeds.push('tool');
  const needs = [...new Set([...plans.filter((p) => p.name !== variant.unknownParam).flatMap((p) => p.plan.needs), ...bodyNeeds, ...(variant.needs ?? [])])];
  return {
    id: `${op.id}:${variant.behaviour}`,
    operationId: op.id,
    behaviour: variant.behaviour,
    needs,
    list: op.paged,
    async play(side) {
      const values: Record<string, string> = {};
      for (const p of plans) values[p.name] = p.name === variant.unknownParam ? `parity-missing-${side.fresh()}` : await p.plan.value(side);
      const body = op.body ? await bodyOf(op, side) : undefined;
      let request: ParityRequest = { method: op.method, path: pathOf(op, values), ...(body !== undefined ? { body } : {}) };
      if (variant.shape) request = await variant.shape(request, side);
      if (variant.twice) {
        request = { ...request, headers: { ...request.headers, 'x-trace-id': side.fresh() } };
        await send(side.endpoint, request);
      }
      const answer = await send(side.endpoint, request);
      if (variant.wait) {
        const id = isPlainObject(answer.value) ? answer.value.execution_id : undefined;
        if (answer.status !== 202 || typeof id !== 'string') return { answer, settled: true };
        const poll: ParityRequest = { method: 'GET', path: pathOf(opNamed('getExecution'), { id }) };
        return settle(side, poll, await send(side.endpoint, poll));
      }
      return settle(side, request, answer);
    },
  };
}

/**
 * The scenario suite, generated from openapi.json: for every operation its success with valid inputs, then each
 * behaviour the contract names that applies to it (no key, an unknown name, a missing required field, an unknown
 * format, each wire of an execute route, its stream, its async pointer and the wait, an idempotent replay).
 */
export function paritySuite(): Scenario[] {
  const out: Scenario[] = [];
  for (const op of SERVER_OPERATIONS) {
    const schema = requestSchema(op);
    const props = (schema?.properties ?? {}) as Json;
    const isExecute = '202' in responses(op) && op.body;
    out.push(scenario(op, { behaviour: 'success' }));
    if (op.auth !== 'none') out.push(scenario(op, { behaviour: 'no-key', shape: (r) => ({ ...r, key: false }) }));
    const named = pathParams(op)
      .filter((p) => NAMED_KINDS.has(p.kind))
      .at(-1);
    if (named) out.push(scenario(op, { behaviour: 'unknown-name', unknownParam: named.name }));
    const required = pathParams(op).some((p) => p.kind === 'Tool') ? null : ((schema?.required ?? []) as string[])[0];
    if (op.body && (required !== undefined || pathParams(op).some((p) => p.kind === 'Tool'))) {
      out.push(
        scenario(op, {
          behaviour: 'missing-field',
          shape: async (r, side) => {
            const field = required ?? Object.keys(await side.toolInput())[0];
            const body = { ...(r.body as Json) };
            if (field !== undefined) delete body[field];
            return { ...r, body };
          },
        }),
      );
    }
    if (op.wire) out.push(scenario(op, { behaviour: 'unknown-format', shape: (r) => ({ ...r, query: { ...r.query, format: 'parity-unknown' } }) }));
    if (isExecute && op.wire)
      for (const format of FORMATS) out.push(scenario(op, { behaviour: `wire:${format}`, shape: (r) => ({ ...r, query: { ...r.query, format } }) }));
    if (op.streaming !== 'none' && op.streaming !== 'always')
      out.push(scenario(op, { behaviour: 'stream', shape: (r) => ({ ...r, body: { ...(r.body as Json), stream: true } }) }));
    if ('async' in props) out.push(scenario(op, { behaviour: 'async', shape: (r) => ({ ...r, body: { ...(r.body as Json), async: true } }) }));
    if ('async' in props) out.push(scenario(op, { behaviour: 'async-wait', wait: true, shape: (r) => ({ ...r, body: { ...(r.body as Json), async: true } }) }));
    else if ('202' in responses(op) && !op.body) out.push(scenario(op, { behaviour: 'async-wait', wait: true }));
    if (op.replay || op.startsRun) out.push(scenario(op, { behaviour: 'replay', twice: true }));
  }
  return out;
}

/** How a side is probed for a need: the request that answers 2xx when the side has it. */
export function probeOf(need: Need, names: ParityNames): { request: ParityRequest; what: string } {
  if (need.startsWith('model:')) {
    const model = need.slice('model:'.length);
    return { request: { method: 'GET', path: pathOf(opNamed('getModel'), { model }) }, what: `model ${model}` };
  }
  switch (need) {
    case 'tool':
      return { request: { method: 'GET', path: pathOf(opNamed('getTool'), { tool: names.tool }) }, what: `tool ${names.tool}` };
    case 'waiting-tool':
      return { request: { method: 'GET', path: pathOf(opNamed('getTool'), { tool: WAITING_TOOL }) }, what: `tool ${WAITING_TOOL} (a run to cancel)` };
    case 'agent':
      return { request: { method: 'GET', path: pathOf(opNamed('getAgent'), { agent: names.agent }) }, what: `agent ${names.agent}` };
    case 'workflow':
      return { request: { method: 'GET', path: pathOf(opNamed('getWorkflow'), { name: names.workflow }) }, what: `workflow ${names.workflow}` };
    default:
      return {
        request: { method: 'GET', path: pathOf(opNamed('listCompanyItems'), { campus: names.company }), query: { building: names.building, limit: '1' } },
        what: `company ${names.company} (building ${names.building})`,
      };
  }
}
