/**
 * MCP: the Oz MCP server through `oz.mcp`, a thin JSON-RPC client that shares the SDK's key, retries,
 * timeouts and typed errors. Tools answer markdown by default, or typed structured content with `format: 'json'`.
 *
 *   node --import tsx examples/mcp.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set (OZ_MCP_URL, when set, is the MCP server's own address;
 * otherwise `/v1/mcp` under the base URL).
 */
import { McpToolFencedError, Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, mcpURL: server.mcpUrl }) : new Oz();

// #region whoami
const me = await oz.whoami(); // or oz.mcp.whoami(): the svc_whoami tool
console.log(me.user, me.tier, me.key_label, me.rate_limit.remaining); // demo pro demo key 99999
// #endregion

// #region tools
const session = await oz.mcp.initialize();
console.log(session.serverInfo.name, session.protocolVersion);
const tools = await oz.mcp.listTools(); // svc_whoami, svc_get_result, svc_followup and one tool per agent
console.log(tools.map((tool) => tool.name).join(', '));

// An agent is a tool taking user_request; the raw result is MCP content, markdown by default.
const called = await oz.mcp.callTool('writer', { user_request: 'a limerick about queues' });
console.log(called.content[0]?.text); // Here is a draft for: ...\n\n---\nexecution_id: exe_...
// #endregion

// #region results
// Read an execution's result, or ask a follow-up on it: markdown, or typed with format: 'json'.
const run = await oz.agents.execute({ agent: 'writer', user_request: 'a product name' });
const asMarkdown = await oz.mcp.getResult(run.execution_id); // a string
const asJson = await oz.mcp.getResult(run.execution_id, { format: 'json' }); // the Execution record
console.log(asMarkdown.split('\n')[0], '|', asJson.content);
const followup = await oz.mcp.followup(run.execution_id, 'make it shorter', { format: 'json' });
console.log(followup.content);
// #endregion

if (server) {
  // #region fence
  // A key fenced to some tools sees only those, and calling another throws McpToolFencedError (JSON-RPC -32602).
  const fencedKey = server.addKey({ account: 'demo', name: 'whoami only', tools: ['svc_whoami'] });
  const fenced = oz.withOptions({ apiKey: fencedKey.key });
  console.log((await fenced.mcp.listTools()).map((tool) => tool.name)); // [ 'svc_whoami' ]
  try {
    await fenced.mcp.callTool('writer', { user_request: 'hello' });
  } catch (error) {
    if (!(error instanceof McpToolFencedError)) throw error;
    console.log(error.code, error.tool, error.message); // -32602 writer ...
  }
  // #endregion
}

await server?.close();
