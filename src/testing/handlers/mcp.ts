import type { ErrorObject, JsonRpcResponse, McpCallToolResult, McpInitializeResult, McpTool, WhoAmI } from '../../generated/types.js';
import type { CatalogAgent } from '../catalog.js';
import type { RequestContext } from '../context.js';
import type { OperationHandler } from '../dispatch.js';
import { OzMockError } from '../errors.js';
import { createExecution, runSync } from '../executionFlow.js';
import { executionView, resultView } from '../executionViews.js';
import { API_VERSION } from '../operations.js';
import { isPlainObject } from '../paramCheck.js';
import type { ExecutionRecord } from '../state.js';
import { rateWindowOf } from '../rateLimit.js';
import { errorMarkdown, executionMarkdown, footer } from '../render.js';
import { findExecution, isFinished } from './executions.js';

/** The MCP protocol version the server answers when the client asks for none it knows. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
const KNOWN_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);

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

const SERVICE_TOOLS: readonly McpTool[] = [
  {
    name: 'svc_whoami',
    description: 'Who the key belongs to: user, auth type, tier, key label and the current rate-limit window.',
    inputSchema: { type: 'object', properties: { format: FORMAT_PROPERTY } },
  },
  {
    name: 'svc_get_result',
    description: 'The result of an execution by id.',
    inputSchema: { type: 'object', properties: { execution_id: { type: 'string' }, format: FORMAT_PROPERTY }, required: ['execution_id'] },
  },
  {
    name: 'svc_followup',
    description: 'A follow-up request on a finished execution.',
    inputSchema: {
      type: 'object',
      properties: { execution_id: { type: 'string' }, user_request: { type: 'string' }, format: FORMAT_PROPERTY },
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
  const fence = ctx.principalOrThrow.key.fence_tools;
  const all = [...SERVICE_TOOLS, ...[...ctx.core.store.catalog.agents.values()].map(agentTool)];
  return fence ? all.filter((t) => fence.includes(t.name)) : all;
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
  const missing = agent.required.filter((k) => input[k] === undefined || input[k] === null);
  if (missing.length) throw new RpcError(-32602, `Missing arguments: ${missing.join(', ')}.`, { missing });
  const run = { kind: 'agent' as const, target: agent.name, input, plan: { type: 'agent' as const, agent, input }, async: false, followupAgent: agent.name };
  const record = createExecution(ctx, run, null);
  const outcome = await runSync(ctx.core, record, run);
  if (outcome.ok) {
    const envelope = resultView(record, ctx.requestId);
    return json ? text(JSON.stringify(envelope), { ...envelope }) : text(envelope.content + footer(record.id));
  }
  return errorResult({ ...outcome.error.toObject(), execution_id: record.id } as ErrorObject, json, record.id);
}

async function callTool(ctx: RequestContext, params: unknown): Promise<McpCallToolResult> {
  if (!isPlainObject(params) || typeof params.name !== 'string') throw new RpcError(-32602, 'tools/call needs params.name.');
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) throw new RpcError(-32602, 'params.arguments must be an object.');
  const name = params.name;
  const fence = ctx.principalOrThrow.key.fence_tools;
  if (fence && !fence.includes(name)) throw new RpcError(-32602, `Tool ${name} is outside this key's fence.`);
  const { format = 'markdown', ...rest } = args;
  if (format !== 'markdown' && format !== 'json') throw new RpcError(-32602, 'format must be markdown or json.');
  const json = format === 'json';
  const stringArg = (key: string): string => {
    const v = rest[key];
    if (typeof v !== 'string' || v === '') throw new RpcError(-32602, `Missing argument: ${key}.`, { missing: [key] });
    return v;
  };

  if (name === 'svc_whoami') {
    const { account, key } = ctx.principalOrThrow;
    const who: WhoAmI = { user: account.name, auth_type: key.kind === 'platform' ? 'platform_key' : 'legacy_key', tier: account.tier, key_label: key.name, rate_limit: rateWindowOf(ctx, ctx.principalOrThrow) };
    return json ? text(JSON.stringify(who), { ...who }) : text(whoamiMarkdown(who));
  }
  if (name === 'svc_get_result') {
    const found = lookUp(ctx, stringArg('execution_id'));
    if ('error' in found) return errorResult(found.error, json);
    const view = executionView(found.record);
    return json ? text(JSON.stringify(view), { ...view }) : text(executionMarkdown(view));
  }
  if (name === 'svc_followup') {
    const id = stringArg('execution_id');
    const request = stringArg('user_request');
    const found = lookUp(ctx, id);
    if ('error' in found) return errorResult(found.error, json);
    const previous = found.record;
    const agent = previous.followup_agent === null ? undefined : ctx.core.store.catalog.agents.get(previous.followup_agent);
    if (!agent || !isFinished(previous)) throw new RpcError(-32602, `Execution ${id} cannot take a follow-up (unfinished, or no agent).`);
    return runAgent(ctx, agent, { ...(previous.kind === 'agent' ? previous.input : {}), user_request: request }, json);
  }
  const agent = ctx.core.store.catalog.agents.get(name);
  if (!agent) throw new RpcError(-32602, `Unknown tool: ${name}.`);
  return runAgent(ctx, agent, rest, json);
}

async function answer(ctx: RequestContext, method: string, params: unknown): Promise<unknown> {
  switch (method) {
    case 'initialize': {
      const asked = isPlainObject(params) ? params.protocolVersion : undefined;
      const result: McpInitializeResult = {
        protocolVersion: typeof asked === 'string' && KNOWN_VERSIONS.has(asked) ? asked : MCP_PROTOCOL_VERSION,
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

/** Whether the request's Accept prefers an event stream over JSON (ties go to the first listed). */
function prefersEventStream(accept: string | null): boolean {
  let best: 'json' | 'sse' | null = null;
  let bestQ = 0;
  for (const entry of (accept ?? '').split(',')) {
    const [type, ...params] = entry.split(';');
    const t = type?.trim().toLowerCase();
    const kind = t === 'text/event-stream' ? 'sse' : t === 'application/json' ? 'json' : null;
    if (!kind) continue;
    const qParam = params.find((p) => p.trim().toLowerCase().startsWith('q='));
    const q = qParam ? Number(qParam.split('=')[1]) : 1;
    if (Number.isFinite(q) && q > bestQ) {
      best = kind;
      bestQ = q;
    }
  }
  return best === 'sse';
}

/**
 * `POST /v1/mcp` and `POST {mcp_url}`: JSON-RPC 2.0 (initialize, notifications, ping, tools/list, tools/call),
 * answered as JSON or, when Accept prefers it, as one SSE `message` event. Notifications answer 202.
 */
export const mcpRequest: OperationHandler = async (ctx) => {
  const message = ctx.body;
  const hasId = 'id' in message;
  const id: Id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  let response: JsonRpcResponse;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string' || (hasId && id === null && message.id !== null)) {
    response = { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request: a JSON-RPC 2.0 message needs jsonrpc "2.0" and a method.' } };
  } else if (!hasId) {
    return ctx.empty(202);
  } else {
    try {
      response = { jsonrpc: '2.0', id, result: (await answer(ctx, message.method, message.params)) as JsonRpcResponse['result'] };
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      response = { jsonrpc: '2.0', id, error: err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data } };
    }
  }
  if (!prefersEventStream(ctx.header('accept'))) return ctx.json(200, response);
  const stream = ctx.openStream();
  stream.send('message', JSON.stringify(response));
  stream.close();
  return ctx.stream(stream);
};
