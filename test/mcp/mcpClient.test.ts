import { beforeEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../src/testing/index.js';
import {
  McpInvalidParamsError,
  McpMethodNotFoundError,
  McpToolFencedError,
  Oz,
  OzError,
  type Execution,
  type ExecutionResult,
  type WhoAmI,
} from '../../src/index.js';
import { testServersForSuite } from '../support/ozServer.js';
import { KEY, rejectionOf } from '../core/support/clients.js';
import { ScriptedServer, type RecordedRequest, type Script } from '../core/support/scriptedServer.js';

const servers = testServersForSuite();
let server: OzServer;
beforeEach(() => {
  server = servers.create();
});

const clientOf = (apiKey: string, mcpURL?: string) => new Oz({ baseURL: server.url, apiKey, fetch: server.fetch, mcpURL, maxRetries: 0 });

describe('client.mcp against the embedded server (in process)', () => {
  it('initializes, lists the tools and answers whoami typed', async () => {
    const client = clientOf(server.apiKey);
    const init = await client.mcp.initialize();
    expect(init.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(init.serverInfo.name).toBeTruthy();
    const names = (await client.mcp.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['svc_whoami', 'svc_get_result', 'svc_followup', 'writer']));
    const me: WhoAmI = await client.whoami();
    expect(me).toMatchObject({ user: 'demo', auth_type: 'platform_key', tier: 'pro' });
    expect(me.rate_limit.limit).toBeGreaterThan(0);
  });

  it('answers getResult and followup in markdown by default and typed with format json', async () => {
    const client = clientOf(server.apiKey);
    const run = await client.tools.execute('echo', { params: { text: 'hello mcp' } });
    const markdown: string = await client.mcp.getResult(run.execution_id);
    expect(markdown).toContain('hello mcp');
    const record: Execution = await client.mcp.getResult(run.execution_id, { format: 'json' });
    expect(record).toMatchObject({ id: run.execution_id, kind: 'tool', target: 'echo', status: 'succeeded' });
    expect(record.content).toContain('hello mcp');
    const writer = await client.agents.execute({ agent: 'writer', user_request: 'a line about tea' });
    const follow: ExecutionResult = await client.mcp.followup(writer.execution_id, 'shorter please', { format: 'json' });
    expect(follow.ok).toBe(true);
    expect(follow.execution_id).not.toBe(writer.execution_id);
  });

  it('turns JSON-RPC errors into typed errors', async () => {
    const client = clientOf(server.apiKey);
    await expect(client.mcp.call('no/such/method')).rejects.toBeInstanceOf(McpMethodNotFoundError);
    const missing = await client.mcp.callTool('svc_get_result', {}).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpInvalidParamsError);
    expect(missing).not.toBeInstanceOf(McpToolFencedError);
    expect(missing).toMatchObject({ code: -32602 });
  });

  it('a tool-fenced key does not see other tools and gets McpToolFencedError calling them', async () => {
    const fenced = server.addKey({ account: 'demo', name: 'fenced', tools: ['svc_whoami'] });
    const client = clientOf(fenced.key);
    expect((await client.mcp.listTools()).map((t) => t.name)).toEqual(['svc_whoami']);
    expect((await client.whoami()).key_label).toBe('fenced');
    const error = await client.mcp.callTool('writer', { user_request: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolFencedError);
    expect(error).toBeInstanceOf(McpInvalidParamsError);
    expect(error).toMatchObject({ code: -32602, tool: 'writer' });
  });
});

describe('client.mcp over real HTTP', () => {
  it('talks to the separate MCP URL (OZ_MCP_URL) as to /v1/mcp', async () => {
    const listener = await server.listen({ port: 0 });
    try {
      for (const mcpURL of [listener.mcpUrl, undefined]) {
        const client = new Oz({ baseURL: listener.url, apiKey: server.apiKey, mcpURL, maxRetries: 0 });
        await client.mcp.initialize();
        expect((await client.whoami()).user).toBe('demo');
      }
    } finally {
      await listener.close();
    }
  });
});

describe('client.mcp against a broken MCP server: every error is an OzError naming what came', () => {
  const scripted = ScriptedServer.forSuite();
  const client = () => new Oz({ baseURL: scripted.url, apiKey: KEY, mcpURL: `${scripted.url}/mcp`, maxRetries: 0, logLevel: 'off' });
  const idOf = (request: RecordedRequest) => (JSON.parse(request.body) as { id?: unknown }).id;
  /** Answers every request with its own id and this result (or `body` as the whole answer). */
  const answering =
    (result: unknown): Script =>
    (request) => ({ body: { jsonrpc: '2.0', id: idOf(request), result } });
  const raw =
    (text: string): Script =>
    () => ({ headers: { 'content-type': 'application/json' }, body: text });

  it.each([
    ['{}', 'an empty object'],
    ['[]', 'an array (0 items)'],
    ['null', 'null'],
    ['"ok"', 'the string "ok"'],
  ])('whoami() on the HTTP body %s', async (text, named) => {
    scripted.fallback = raw(text);
    const error = await rejectionOf(client().whoami());
    expect(error).toBeInstanceOf(OzError);
    expect(error).not.toBeInstanceOf(TypeError);
    // `{}` has no id: it is no response to this request.
    expect((error as Error).message).toContain(
      text === '{}' ? 'with the response to another request (id none)' : `is not a JSON-RPC response: it is ${named}.`,
    );
  });

  it.each([
    ['result: null', null, 'is not a JSON-RPC result object: it is null.'],
    ['result: []', [], 'is not a JSON-RPC result object: it is an array (0 items).'],
    ['result without content', {}, 'The answer of MCP tool svc_whoami is not a tool result (`content`): it is an empty object.'],
    ['content that is not a list', { content: 'x' }, 'is not a tool result (`content`): it is an object with keys content.'],
    [
      'JSON text that is not an object',
      { content: [{ type: 'text', text: '[]' }] },
      'The answer of MCP tool svc_whoami is not a JSON object: it is an array (0 items).',
    ],
  ])('whoami() on %s', async (_, result, message) => {
    scripted.fallback = answering(result);
    const error = await rejectionOf(client().whoami());
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toContain(message);
  });

  it('initialize() on { result: null } or {} is an OzError', async () => {
    scripted.fallback = answering(null);
    expect(await rejectionOf(client().mcp.initialize())).toBeInstanceOf(OzError);
    scripted.fallback = raw('{}');
    expect(await rejectionOf(client().mcp.initialize())).toBeInstanceOf(OzError);
  });

  it('a JSON-RPC error whose fields are not a code and a message is an OzError naming it', async () => {
    scripted.fallback = (request) => ({ body: { jsonrpc: '2.0', id: idOf(request), error: 'boom' } });
    const error = await rejectionOf(client().mcp.call('tools/list'));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toContain('is not a JSON-RPC error (`code`, `message`): it is the string "boom".');
  });

  it("takes only the response whose id is its request's: another id is an OzError naming both", async () => {
    scripted.fallback = (request) => ({ body: { jsonrpc: '2.0', id: Number(idOf(request)) + 7, result: { tools: [] } } });
    const error = await rejectionOf(client().mcp.call('tools/list'));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toBe(
      "The MCP server answered tools/list (id 1) with the response to another request (id 8); it is not this call's answer.",
    );
    scripted.fallback = () => ({ body: { jsonrpc: '2.0', id: '1', result: {} } });
    expect(((await rejectionOf(client().mcp.call('ping'))) as Error).message).toContain('(id "1")');
  });

  it('the same over server-sent events: a message event with another id is not the answer', async () => {
    scripted.fallback = (request) => ({
      headers: { 'content-type': 'text/event-stream' },
      body: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: Number(idOf(request)) + 1, result: {} })}\n\n`,
    });
    expect(((await rejectionOf(client().mcp.call('ping'))) as Error).message).toContain('with the response to another request (id 2)');
  });

  it("an error with id null (JSON-RPC: a request it could not read) is this request's typed error", async () => {
    scripted.fallback = () => ({ body: { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'Invalid params' } } });
    expect(await rejectionOf(client().mcp.call('tools/list'))).toBeInstanceOf(McpInvalidParamsError);
  });

  it('listTools(): an empty page ends the walk whatever its nextCursor says; a repeated cursor is an OzError', async () => {
    scripted.fallback = answering({ tools: [], nextCursor: 'again' });
    expect(await client().mcp.listTools()).toEqual([]);
    expect(scripted.requests).toHaveLength(1);
    scripted.reset();
    scripted.fallback = answering({ tools: [{ name: 't', inputSchema: { type: 'object' } }], nextCursor: 'same' });
    const error = await rejectionOf(client().mcp.listTools());
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toContain('with the cursor "same" twice');
    expect(scripted.requests).toHaveLength(2);
    scripted.fallback = answering({ nextCursor: 'x' });
    expect(((await rejectionOf(client().mcp.listTools())) as Error).message).toContain(
      'is not a list of tools (`tools`): it is an object with keys nextCursor.',
    );
  });
});
