import { beforeEach, describe, expect, it } from 'vitest';
import type { OzServer } from '../../src/testing/index.js';
import {
  McpInvalidParamsError,
  McpMethodNotFoundError,
  McpToolFencedError,
  Oz,
  type Execution,
  type ExecutionResult,
  type WhoAmI,
} from '../../src/index.js';
import { testServersForSuite } from '../support/ozServer.js';

const servers = testServersForSuite();
let server: OzServer;
beforeEach(() => {
  server = servers.create();
});

const clientOf = (apiKey: string, mcpURL?: string) =>
  new Oz({ baseURL: server.url, apiKey, fetch: server.fetch, mcpURL, maxRetries: 0 });

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
