import type { ErrorObject, JsonRpcResponse, McpCallToolResult, McpInitializeResult, McpTool, WhoAmI } from '../../generated/types.js';
import type { CatalogAgent } from '../state/catalog.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { OzMockError } from '../contract/errors.js';
import { createExecution } from './shared/executionFlow.js';
import { runSync } from '../runs/runStart.js';
import { findExecution } from './shared/executionRecords.js';
import { executionView, resultView } from '../state/executionViews.js';
import { API_VERSION } from '../contract/operations.js';
import { isPlainObject } from '../support/plainObject.js';
import { componentCheck } from '../pipeline/steps/validate.js';
import { interpretedCheck } from '../contract/schemaInterpreter.js';
import { missingFields, type ValidationProblem } from '../contract/schemaValidation.js';
import { isFinished, type ExecutionRecord } from '../state/state.js';
import { rateWindowOf } from '../pipeline/steps/rateLimit.js';
import { errorMarkdown, executionMarkdown, footer } from '../wire/render.js';
import { fenceAdmits } from './shared/toolFence.js';
import { preferredAcceptType } from '../wire/wire.js';

/** The MCP protocol versions the server speaks, oldest first; `initialize` answers the newest for any other. */
export const MCP_PROTOCOL_VERSIONS = ['2025-06-18', '2025-11-25'] as const;
const NEWEST_VERSION = MCP_PROTOCOL_VERSIONS[MCP_PROTOCOL_VERSIONS.length - 1]!;
const SUPPORTED: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS);

type Id = string | number | null;

/** A JSON-RPC error raised while handling a request. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const FORMAT_PROPERTY = { type: 'string', enum: ['markdown', 'json'], description: 'markdown (default), or json for a JSON document plus structuredContent.' };
const EXECUTION_ID = { type: 'string', minLength: 1, description: 'The execution id (`exe_...` or the trace id it was started with).' };
const USER_REQUEST = { type: 'string', minLength: 1, description: 'What to ask.' };

const SERVICE_TOOLS: readonly McpTool[] = [
  {
    name: 'svc_whoami',
    description: 'Who the key belongs to: user, auth type, tier, key label and the current rate-limit window.',
    inputSchema: { type: 'object', properties: { format: FORMAT_PROPERTY } },
  },
  {
    name: 'svc_get_result',
    description: 'The result of an execution by id.',
    inputSchema: { type: 'object', properties: { execution_id: EXECUTION_ID, format: FORMAT_PROPERTY }, required: ['execution_id'] },
  },
  {
    name: 'svc_followup',
    description: 'A follow-up request on a finished execution.',
    inputSchema: {
      type: 'object',
      properties: { execution_id: EXECUTION_ID, user_request: USER_REQUEST, format: FORMAT_PROPERTY },
      required: ['execution_id', 'user_request'],
    },
  },
];

function agentTool(agent: CatalogAgent): McpTool {
  const schema = agent.inputSchema as { properties?: Record<string, unknown> };
  return {
    name: agent.name,
    description: agent.description,
    inputSchema: { ...agent.inputSchema, properties: { ...schema.properties, format: FORMAT_PROPERTY } },
  };
}

/** The tools a key sees: the service tools and one per agent, less what its tool fence leaves out. */
function visibleTools(ctx: RequestContext): McpTool[] {
  const all = [...SERVICE_TOOLS, ...[...ctx.parts.store.catalog.agents.values()].map(agentTool)];
  return all.filter((t) => fenceAdmits(ctx, t.name));
}

function text(value: string, structured?: Record<string, unknown>, isError = false): McpCallToolResult {
  const result: McpCallToolResult = { content: [{ type: 'text', text: value }] };
  if (structured) result.structuredContent = structured;
  if (isError) result.isError = true;
  return result;
}

function whoamiMarkdown(w: WhoAmI): string {
  return [
    '# whoami',
    '',
    `- user: ${w.user}`,
    `- auth_type: ${w.auth_type}`,
    `- tier: ${w.tier}`,
    `- key_label: ${w.key_label ?? 'none'}`,
    `- rate_limit: ${w.rate_limit.remaining} of ${w.rate_limit.limit} left, resets at ${w.rate_limit.reset_at}`,
    '',
  ].join('\n');
}

function errorResult(error: ErrorObject, json: boolean, executionId?: string): McpCallToolResult {
  return json ? text(JSON.stringify({ error }), { error }, true) : text(errorMarkdown(error, executionId), undefined, true);
}

/** An execution of the caller's account, or the `execution_not_found` error a tool answers instead. */
function lookUp(ctx: RequestContext, id: string): { record: ExecutionRecord } | { error: ErrorObject } {
  try {
    return { record: findExecution(ctx, id) };
  } catch (err) {
    if (err instanceof OzMockError) return { error: err.toObject() as ErrorObject };
    throw err;
  }
}

async function runAgent(ctx: RequestContext, agent: CatalogAgent, input: Record<string, unknown>, json: boolean): Promise<McpCallToolResult> {
  const run = { kind: 'agent' as const, target: agent.name, input, plan: { type: 'agent' as const, agent, input }, async: false, followupAgent: agent.name };
  const record = createExecution(ctx, run, null);
  const outcome = await runSync(ctx.parts, record, run);
  if (outcome.ok) {
    const envelope = resultView(record, ctx.requestId);
    return json ? text(JSON.stringify(envelope), { ...envelope }) : text(envelope.content + footer(record.id));
  }
  return errorResult({ ...outcome.error.toObject(), execution_id: record.id } as ErrorObject, json, record.id);
}

const ARGUMENTS = 'params.arguments';

/** -32602 for params that break a schema, naming the field (and listing absent arguments in `data.missing`). */
function badParams(problem: ValidationProblem): RpcError {
  const missing = problem.missing.map((m) => (m.startsWith(`${ARGUMENTS}.`) ? m.slice(ARGUMENTS.length + 1) : m));
  return new RpcError(-32602, problem.message, missing.length ? { missing } : undefined);
}

// Checked at `params`, so that a problem names its field from the message's top: `params.name`, `params.arguments`.
const checkCallParams = componentCheck('McpCallToolParams', 'params');

async function callTool(ctx: RequestContext, params: unknown): Promise<McpCallToolResult> {
  const paramsProblem = params === undefined ? missingFields(['params']) : checkCallParams(params);
  if (paramsProblem) throw badParams(paramsProblem);
  const { name, arguments: args = {} } = params as { name: string; arguments?: Record<string, unknown> };
  if (!fenceAdmits(ctx, name)) throw new RpcError(-32602, `Tool ${name} is outside this key's fence.`);
  const tool = visibleTools(ctx).find((t) => t.name === name);
  if (!tool) throw new RpcError(-32602, `Unknown tool: ${name}.`);
  const problem = interpretedCheck(tool.inputSchema, ARGUMENTS)(args);
  if (problem) throw badParams(problem);
  const { format = 'markdown', ...rest } = args;
  const json = format === 'json';

  if (name === 'svc_whoami') {
    const { account, key } = ctx.principalOrThrow;
    const who: WhoAmI = {
      user: account.name,
      auth_type: key.kind === 'platform' ? 'platform_key' : 'legacy_key',
      tier: account.tier,
      key_label: key.name,
      rate_limit: rateWindowOf(ctx.parts.store.data.windows, ctx.parts.clock.now(), ctx.principalOrThrow),
    };
    return json ? text(JSON.stringify(who), { ...who }) : text(whoamiMarkdown(who));
  }
  if (name === 'svc_get_result') {
    const found = lookUp(ctx, rest.execution_id as string);
    if ('error' in found) return errorResult(found.error, json);
    const view = executionView(found.record);
    return json ? text(JSON.stringify(view), { ...view }) : text(executionMarkdown(view));
  }
  if (name === 'svc_followup') {
    const id = rest.execution_id as string;
    const request = rest.user_request as string;
    const found = lookUp(ctx, id);
    if ('error' in found) return errorResult(found.error, json);
    const previous = found.record;
    const agent = previous.followup_agent === null ? undefined : ctx.parts.store.catalog.agents.get(previous.followup_agent);
    if (!agent || !isFinished(previous)) throw new RpcError(-32602, `Execution ${id} cannot take a follow-up (unfinished, or no agent).`);
    return runAgent(ctx, agent, { ...(previous.kind === 'agent' ? previous.input : {}), user_request: request }, json);
  }
  return runAgent(ctx, ctx.parts.store.catalog.agents.get(name)!, rest, json);
}

async function answer(ctx: RequestContext, method: string, params: unknown): Promise<unknown> {
  switch (method) {
    case 'initialize': {
      const asked = isPlainObject(params) ? params.protocolVersion : undefined;
      const result: McpInitializeResult = {
        protocolVersion: typeof asked === 'string' && SUPPORTED.has(asked) ? asked : NEWEST_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'oz-mock', version: API_VERSION },
        instructions: 'The Oz service (in-memory mock). Call svc_whoami to see your key; each agent is a tool taking user_request.',
      };
      return result;
    }
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: visibleTools(ctx) };
    case 'tools/call':
      return callTool(ctx, params);
    default:
      throw new RpcError(-32601, `Method not found: ${method}.`);
  }
}

const STREAM_OR_JSON: Readonly<Record<string, 'sse' | 'json'>> = { 'text/event-stream': 'sse', 'application/json': 'json' };

/** Whether the request's Accept prefers an event stream over JSON (ties go to the first listed). */
function prefersEventStream(accept: string | null): boolean {
  return preferredAcceptType(accept, STREAM_OR_JSON) === 'sse';
}

function rpcError(id: Id, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** What the client sent: one request, a notification or response (answered 202), or an invalid message. */
type Message = { kind: 'request'; id: string | number; method: string; params: unknown } | { kind: 'accepted' } | { kind: 'invalid'; id: Id; message: string };

function classify(value: unknown): Message {
  if (Array.isArray(value)) {
    return {
      kind: 'invalid',
      id: null,
      message: `Batches are not supported: protocol versions ${MCP_PROTOCOL_VERSIONS.join(' and ')} take one JSON-RPC message per request.`,
    };
  }
  if (!isPlainObject(value)) return { kind: 'invalid', id: null, message: 'Invalid request: a JSON-RPC message is an object.' };
  const id: Id = typeof value.id === 'string' || typeof value.id === 'number' ? value.id : null;
  if (!('method' in value) && ('result' in value || 'error' in value) && value.jsonrpc === '2.0') return { kind: 'accepted' };
  const problem = componentCheck('JsonRpcRequest')(value);
  if (problem) return { kind: 'invalid', id, message: `Invalid request: ${problem.message}` };
  if (!('id' in value)) return { kind: 'accepted' };
  if (id === null) return { kind: 'invalid', id: null, message: 'Invalid request: id must be a string or a number, not null.' };
  return { kind: 'request', id, method: value.method as string, params: value.params };
}

/** A request's `MCP-Protocol-Version` must name a version the server speaks (MCP "protocol version header"). */
function checkVersionHeader(ctx: RequestContext): void {
  const version = ctx.header('mcp-protocol-version');
  if (version !== null && !SUPPORTED.has(version)) {
    throw new OzMockError(
      400,
      'unsupported_protocol_version',
      `MCP-Protocol-Version ${version} is not supported: this server speaks ${MCP_PROTOCOL_VERSIONS.join(' and ')}.`,
    );
  }
}

/**
 * `POST /v1/mcp` and `POST {mcp_url}`: JSON-RPC 2.0 (initialize, notifications, ping, tools/list, tools/call),
 * answered as JSON or, when Accept prefers it, as one SSE `message` event. Notifications and responses from
 * the client answer 202 with no body; a batch, a null id or a message that is not JSON-RPC answer -32600.
 */
export const mcpRequest: OperationHandler = async (ctx) => {
  const message = classify(ctx.message);
  if (!(message.kind === 'request' && message.method === 'initialize')) checkVersionHeader(ctx);
  let response: JsonRpcResponse;
  if (message.kind === 'accepted') return ctx.empty(202);
  if (message.kind === 'invalid') {
    response = rpcError(message.id, -32600, message.message);
  } else {
    try {
      response = { jsonrpc: '2.0', id: message.id, result: (await answer(ctx, message.method, message.params)) as JsonRpcResponse['result'] };
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      response = rpcError(message.id, err.code, err.message, err.data);
    }
  }
  if (!prefersEventStream(ctx.header('accept'))) return ctx.json(200, response);
  const stream = ctx.openStream();
  stream.send('message', JSON.stringify(response));
  stream.close();
  return ctx.stream(stream);
};
