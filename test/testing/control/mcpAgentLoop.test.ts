/**
 * A coding agent's loop, scripted (plain code, no model): everything it knows of oz-mock comes through the control
 * plane's MCP server (the official MCP client on `/_oz/mcp`), and the code under test is the SDK on real HTTP. It
 * sets up a fault, watches an SDK call hit it, adds a stub that never matches (a wrong path parameter), reads the
 * near miss that explains why, and fixes the stub from what the near miss says.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Oz, ToolNotFoundError, UpstreamError } from '../../../src/index.js';
import { createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';

let server: OzServer;
let listener: OzListener;
let agent: Client;

beforeAll(async () => {
  server = createOzServer();
  listener = await server.listen();
  agent = new Client({ name: 'scripted-agent', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${listener.url}/_oz/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.adminToken}` } } }),
  );
});
afterAll(async () => {
  await agent.close();
  await listener.close();
  await server.close();
});

/** One tool call of the agent: its structured answer (a tool error fails the step). */
async function tool(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = (await agent.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${(result.content[0] as { text: string }).text}`);
  return result.structuredContent!;
}

/** The code under test: the SDK, configured from what the agent learned through server_info. */
function codeUnderTest(info: Record<string, any>): Oz {
  return new Oz({ baseURL: info.url, apiKey: info.apiKey ?? server.apiKey, maxRetries: 0, logLevel: 'off' });
}

it('sets up a fault, sees the SDK hit it, then finds through a near miss why its stub never matched, and fixes it', async () => {
  const { tools } = await agent.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['server_info', 'add_fault', 'add_stub', 'list_unused', 'read_journal', 'remove_stub']));
  const oz = codeUnderTest(await tool('server_info'));

  // 1. A fault: the next tool run fails upstream; the SDK raises its typed error, and the journal shows the fault.
  await tool('add_fault', { type: 'error', operationId: 'executeTool', status: 502, code: 'upstream_error', message: 'the provider is down' });
  const failure = await oz.tools.execute('echo', { text: 'hi' }).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(UpstreamError);
  const [hit] = (await tool('read_journal', { operationId: 'executeTool' })).data;
  expect([hit.status, hit.fault]).toEqual([502, 'error']);
  expect((await tool('list_unused')).faults).toEqual([]);

  // 2. A stub meant for `echo`, with a typo in its path parameter: the SDK call gets the real tool, not the stub.
  const notFound = { status: 404, body: { error: { code: 'tool_not_found', message: 'echo was retired' } } };
  await tool('add_stub', { operationId: 'getTool', match: { path: { tool: 'echoo' } }, answer: notFound });
  expect((await oz.tools.get('echo')).name).toBe('echo');

  // 3. Why: the stub never fired, and its near miss names the field and both values.
  const [unused] = (await tool('list_unused')).stubs;
  expect(unused.hits).toBe(0);
  const [miss] = unused.nearMisses;
  expect(miss).toMatchObject({ operationId: 'getTool', method: 'GET', path: '/v1/tools/echo', status: 200 });
  const wrong = miss.differences.find((d: { path: string }) => d.path.startsWith('path.'));
  expect(wrong).toEqual({ path: 'path.tool', expected: 'echoo', actual: 'echo' });

  // 4. The fix, taken from the near miss alone: the stub now answers the SDK call.
  await tool('remove_stub', { id: unused.id });
  await tool('add_stub', { operationId: 'getTool', match: { path: { [wrong.path.slice('path.'.length)]: wrong.actual } }, answer: notFound });
  const retired = await oz.tools.get('echo').catch((e: unknown) => e);
  expect(retired).toBeInstanceOf(ToolNotFoundError);
  expect((retired as Error).message).toContain('echo was retired');
  expect(await tool('list_unused')).toEqual({ faults: [], stubs: [] });
});
