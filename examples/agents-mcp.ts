/**
 * oz-mock for coding agents: its control plane as an MCP server. An agent's MCP client (here the official one,
 * `@modelcontextprotocol/sdk`) drives oz-mock through tools: over `POST /_oz/mcp` as here, or on stdio with
 * `npx oz-mock mcp` (examples/fixtures/mcp-servers.json is an MCP client's configuration for it).
 *
 *   node --import tsx examples/agents-mcp.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

// #region connect
// What `npx oz-mock` runs; it prints its URL and OZ_MOCK_ADMIN_TOKEN=..., the two things an MCP client needs.
const server = createOzServer();
const listener = await server.listen();
const agent = new Client({ name: 'my-agent', version: '1.0.0' });
const url = new URL(`${listener.url}/_oz/mcp`);
await agent.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${server.adminToken}` } } }));
const { tools } = await agent.listTools();
console.log(tools.map((tool) => tool.name).join(', ')); // server_info, reset, capture_baseline, load_fixtures, add_stub, ...

/** One tool call: its answer is JSON, as `structuredContent` (and as text). */
const call = async (name: string, args: Record<string, unknown> = {}) =>
  ((await agent.callTool({ name, arguments: args })) as CallToolResult).structuredContent!;
// #endregion

// #region near-miss
// A stub for the tool `echo`, with a typo in its path parameter.
const retired = { status: 404, body: { error: { code: 'tool_not_found', message: 'echo was retired' } } };
await call('add_stub', { operationId: 'getTool', match: { path: { tool: 'echoo' } }, answer: retired });
// The code under test gets the real tool: the stub never matched. list_unused says why.
const oz = new Oz({ baseURL: listener.url, apiKey: server.apiKey, logLevel: 'off' });
console.log((await oz.tools.get('echo')).name); // echo
const { stubs } = (await call('list_unused')) as { stubs: Array<{ nearMisses: Array<{ differences: unknown[] }> }> };
console.log(JSON.stringify(stubs[0]!.nearMisses[0]!.differences)); // [{"path":"path.tool","expected":"echoo","actual":"echo"}]
// #endregion

// #region errors
// A refused call is a tool error with the control plane's error: its HTTP status, code and message.
const refused = (await agent.callTool({ name: 'add_fault', arguments: { type: 'error', operationId: 'nope' } })) as CallToolResult;
const { error } = JSON.parse((refused.content[0] as { text: string }).text) as { error: { status: number; code: string; message: string } };
console.log(refused.isError, error.status, error.code, error.message); // true 422 invalid_params operationId names no operation of openapi.json: nope.
// #endregion

await agent.close();
await listener.close();
await server.close();
