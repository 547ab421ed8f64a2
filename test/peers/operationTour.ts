/**
 * A tour of every operation of openapi.json, as a client of another language would make it: each operation once
 * with a success and, where the demo seed allows one that a validating proxy lets through, once with an error;
 * the wire operations on one given wire. The tour only sends requests and says what it expects; the caller decides
 * where they go (Prism, or straight to the server) and checks every answer.
 */
import yaml from 'js-yaml';
import openapi from '../../openapi.json' with { type: 'json' };
import { OPERATIONS, type OperationId } from '../../src/generated/operations.js';
import type { Format as Wire } from '../../src/core/shared/requestOptions.js';

/** One request of the tour. */
export interface TourRequest {
  readonly operationId: OperationId;
  readonly method: string;
  /** The path and query, starting with `/`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent, already encoded. */
  readonly body?: string;
  /** The status the server must answer. */
  readonly expect: number;
  /** The wire of the answer (`json` on operations without wires), or `sse` for streams. */
  readonly wire: Wire | 'sse';
  /** Whether the body is YAML (Prism cannot read YAML bodies). */
  readonly yamlBody: boolean;
}

/** Sends one request of the tour; answers its status, headers and body text. */
export type TourSend = (request: TourRequest) => Promise<{ status: number; headers: Headers; text: string }>;

const ACCEPT: Readonly<Record<Wire, string>> = {
  json: 'application/json',
  yaml: 'application/yaml',
  markdown: 'text/markdown',
  text: 'text/plain',
};

/** Keys the tour sends. */
export interface TourKeys {
  readonly apiKey: string;
  readonly proxyKey: string;
}

interface CallOptions {
  readonly body?: unknown;
  /** Send the body as YAML with this content type. */
  readonly yaml?: 'text/yaml' | 'application/yaml' | 'application/x-yaml';
  readonly expect?: number;
  readonly key?: string | null;
  /** The answer is a stream: no wire negotiation. */
  readonly stream?: boolean;
  readonly accept?: string;
}

/**
 * Makes the tour on `wire`: every operation of openapi.json at least once. Resources the wire calls need
 * (executions, schedules, items, workflows) are made first through `send` on the JSON wire. Answers the
 * operations it called.
 */
export async function runTour(wire: Wire, keys: TourKeys, send: TourSend): Promise<Set<OperationId>> {
  const called = new Set<OperationId>();
  const suffix = `${wire}-${Math.random().toString(36).slice(2, 8)}`;

  async function call(operationId: OperationId, path: string, options: CallOptions = {}) {
    const op = OPERATIONS[operationId];
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? keys.apiKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const answerWire: Wire | 'sse' = options.stream ? 'sse' : op.wire ? wire : 'json';
    const accept = options.accept ?? (options.stream ? 'text/event-stream' : ACCEPT[op.wire ? wire : 'json']);
    headers.accept = accept;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = options.yaml ? yaml.dump(options.body) : JSON.stringify(options.body);
      headers['content-type'] = options.yaml ?? 'application/json';
    }
    const expect = options.expect ?? Number(Object.keys(okStatuses[operationId])[0]);
    const request: TourRequest = { operationId, method: op.method, path, headers, body, expect, wire: answerWire, yamlBody: options.yaml !== undefined };
    called.add(operationId);
    const answer = await send(request);
    if (answer.status !== expect) {
      throw new Error(`${op.method} ${path} (${wire}) answered ${answer.status}, not ${expect}: ${answer.text.slice(0, 300)}`);
    }
    return answer;
  }
  /** A call on the JSON wire whose answer the tour reads. */
  async function json<T>(operationId: OperationId, path: string, options: CallOptions = {}): Promise<T> {
    const answer = await call(operationId, path, { ...options, accept: 'application/json' });
    return JSON.parse(answer.text) as T;
  }

  // Meta and models plane (JSON only).
  await call('getHealth', '/health', { key: null });
  await call('getOpenAPI', '/v1/openapi.json', { key: null });
  await call('listModels', '/v1/models');
  await call('getModel', '/v1/models/oz-chat');
  await call('getModel', '/v1/models/no-such-model', { expect: 404 });
  const chat = { model: 'oz-chat', messages: [{ role: 'user', content: 'Say hello.' }] };
  await call('createChatCompletion', '/v1/chat/completions', { body: chat });
  await call('createChatCompletion', '/v1/chat/completions', { body: { ...chat, stream: true, stream_options: { include_usage: true } }, stream: true });
  await call('createChatCompletion', '/v1/chat/completions', { body: { ...chat, model: 'no-such-model' }, expect: 404 });
  await call('createEmbedding', '/v1/embeddings', { body: { model: 'oz-embed', input: ['one', 'two'] } });

  // Tools and agents.
  await call('listTools', '/v1/tools?limit=2');
  await call('getTool', '/v1/tools/echo');
  await call('getTool', '/v1/tools/no-such-tool', { expect: 404 });
  await call('executeTool', '/v1/tools/echo/execute', { body: { text: 'hello' } });
  await call('executeTool', '/v1/tools/sum/execute', { body: { params: { a: 2, b: 3 } }, yaml: 'application/x-yaml' });
  await call('executeTool', '/v1/tools/echo/execute', { body: { text: 'later', async: true }, expect: 202 });
  await call('executeTool', '/v1/tools/crm_lookup/execute', { body: { query: 'acme' }, expect: 424 });
  await call('listAgents', '/v1/agents');
  await call('getAgent', '/v1/agents/writer');
  await call('getAgent', '/v1/agents/no-such-agent', { expect: 404 });
  await call('executeAgent', '/v1/execute', { body: { agent: 'writer', user_request: 'A haiku about tests.' } });
  await call('executeAgent', '/v1/execute', { body: { agent: 'writer', user_request: 'In YAML.' }, yaml: 'application/yaml' });
  await call('executeAgent', '/v1/execute', { body: { agent: 'writer', user_request: 'Streamed.', stream: true }, stream: true });
  await call('executeAgent', '/v1/execute', { body: { agent: 'approver', user_request: 'Ship it.' }, expect: 409 });

  // Workflows.
  const tasks = [{ id: 'draft', type: 'task', agent: 'writer', user_request: 'Draft a note.' }];
  await call('executeWorkflow', '/v1/workflows/execute', { body: { workflow: { name: 'inline', tasks }, input: 'notes' } });
  await call('executeWorkflow', '/v1/workflows/execute', { body: { workflow: { name: 'inline', tasks }, async: true }, expect: 202 });
  await call('executeWorkflowStream', '/v1/workflows/execute-stream', { body: { workflow: { name: 'inline', tasks } }, stream: true });
  await call('listWorkflows', '/v1/workflows');
  const name = `notes-${suffix}`;
  await call('createWorkflow', '/v1/workflows', { body: { name, description: 'Drafts a note.', tasks }, yaml: 'text/yaml' });
  await call('createWorkflow', '/v1/workflows', { body: { name, tasks }, expect: 409 });
  await call('getWorkflow', `/v1/workflows/${name}`);
  await call('getWorkflow', '/v1/workflows/no-such-workflow', { expect: 404 });
  await call('executeStoredWorkflow', `/v1/workflows/${name}/execute`, { body: { input: 'notes' } });
  await call('executeStoredWorkflowStream', '/v1/workflows/draft-and-review/execute-stream', { body: { input: 'notes' }, stream: true });
  await call('deleteWorkflow', `/v1/workflows/${name}`);
  await call('deleteWorkflow', `/v1/workflows/${name}`, { expect: 404 });

  // Schedules.
  const schedule = { name: `nightly-${suffix}`, cron: '0 3 * * *', timezone: 'Europe/Paris', target: { kind: 'tool', name: 'echo' }, input: { text: 'tick' } };
  const made = await json<{ id: string }>('createSchedule', '/v1/schedules', { body: schedule });
  await call('createSchedule', '/v1/schedules', { body: { ...schedule, name: `hourly-${suffix}`, cron: '0 * * * *' } });
  await call('createSchedule', '/v1/schedules', { body: { ...schedule, cron: 'every night' }, expect: 422 });
  await call('listSchedules', '/v1/schedules');
  await call('getSchedule', `/v1/schedules/${made.id}`);
  await call('getSchedule', '/v1/schedules/sch_missing', { expect: 404 });
  await call('runSchedule', `/v1/schedules/${made.id}/run`);
  await call('deleteSchedule', `/v1/schedules/${made.id}`);
  await call('deleteSchedule', `/v1/schedules/${made.id}`, { expect: 404 });

  // Executions, traces, discovery.
  const done = await json<{ execution_id: string }>('executeTool', '/v1/tools/echo/execute', { body: { text: 'for the record' } });
  const running = await json<{ execution_id: string }>('executeTool', '/v1/tools/slow/execute', { body: { ms: 60_000, async: true }, expect: 202 });
  await call('listExecutions', '/v1/executions?limit=5&status=succeeded');
  await call('getExecution', `/v1/executions/${done.execution_id}`);
  await call('getExecution', '/v1/executions/exe_missing', { expect: 404 });
  await call('cancelExecution', `/v1/executions/${running.execution_id}/cancel`);
  await call('cancelExecution', '/v1/executions/exe_missing/cancel', { expect: 404 });
  const agentRun = await json<{ execution_id: string }>('executeAgent', '/v1/execute', { body: { agent: 'writer', user_request: 'A first draft.' } });
  await call('followupExecution', `/v1/executions/${agentRun.execution_id}/followup`, { body: { user_request: 'Shorter, please.' } });
  await call('searchDiscovery', '/v1/discovery?q=draft&limit=3');
  await call('listTraces', '/v1/traces?limit=3');
  await call('getTrace', `/v1/traces/${done.execution_id}`);
  await call('getTrace', '/v1/traces/exe_missing', { expect: 404 });

  // Connections and the connector proxy.
  const provider = `crm${suffix.replace(/[^a-z0-9]/g, '')}`;
  await call('proxyGet', `/v1/proxy/${provider}/contacts`, { expect: 424 });
  await call('linkConnection', `/v1/connections/${provider}/link`, { body: { method: 'api_key', api_key: 'upstream-secret' } });
  await call('linkConnection', `/v1/connections/other${provider}/link`, { body: {} });
  await call('proxyGet', `/v1/proxy/${provider}/contacts?q=acme`);
  await call('proxyGet', `/v1/proxy/${provider}/${encodeURIComponent('contacts/123/notes')}`, { key: keys.proxyKey });
  await call('proxyPost', `/v1/proxy/${provider}/contacts`, { body: { name: 'Ada' } });
  await call('proxyPut', `/v1/proxy/${provider}/contacts%2F123`, { body: { name: 'Ada L.' } });
  await call('proxyPatch', `/v1/proxy/${provider}/contacts%2F123`, { body: { email: 'ada@example.com' } });
  await call('proxyDelete', `/v1/proxy/${provider}/contacts%2F123`);

  // Companies.
  const item = await json<{ id: string }>('createCompanyItem', '/v1/companies/acme/items', {
    body: { building: 'hq', title: `Launch plan ${suffix}`, body: 'Plan the launch.', priority: 2 },
  });
  await call('createCompanyItem', '/v1/companies/acme/items', { body: { building: 'lab', title: 'Measure', tier: 'gold' } });
  await call('createCompanyItem', '/v1/companies/globex/items', { body: { building: 'hq', title: 'Not ours' }, expect: 404 });
  await call('listCompanyItems', '/v1/companies/acme/items?building=hq&limit=5');
  await call('getCompanyItem', `/v1/companies/acme/items/${item.id}`);
  await call('getCompanyItem', '/v1/companies/acme/items/itm_missing', { expect: 404 });

  // MCP over the API port.
  const rpc = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
  await call('mcpRequest', '/v1/mcp', {
    body: rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tour', version: '1.0.0' } }),
  });
  await call('mcpRequest', '/v1/mcp', { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, expect: 202 });
  await call('mcpRequest', '/v1/mcp', { body: rpc(2, 'tools/list') });
  await call('mcpRequest', '/v1/mcp', {
    body: rpc(3, 'tools/call', { name: 'svc_whoami', arguments: { format: 'json' } }),
    accept: 'text/event-stream, application/json;q=0.5',
  });
  await call('mcpRequest', '/v1/mcp', { body: rpc(4, 'no/such/method') });
  return called;
}

/** The 2xx statuses each operation documents (the first is what a plain call answers). */
const okStatuses = (() => {
  const doc = openapi as unknown as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
  const out: Record<string, Record<string, unknown>> = {};
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op.operationId || !op.responses) continue;
      out[op.operationId] = Object.fromEntries(Object.entries(op.responses).filter(([s]) => s.startsWith('2')));
    }
  }
  return out as Readonly<Record<OperationId, Record<string, unknown>>>;
})();
