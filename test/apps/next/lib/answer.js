import { ERROR_CODES, Oz, OzAPIError, RateLimitedError, ToolNotFoundError } from 'oz-sdk';
import { McpClient } from 'oz-sdk/mcp';
import { OzCore, toolsExecute } from 'oz-sdk/funcs';

/**
 * What both routes answer, through the client: an echo (the root entry), the same echo through `oz-sdk/funcs`,
 * the MCP server's tools (the root entry's `oz.mcp`, an `oz-sdk/mcp` class) and a typed error. The clients are made
 * here, per request: `next build` loads the route modules without OZ_BASE_URL, where `new Oz()` at module scope
 * would throw "No base URL".
 */
export async function answer(runtime) {
  const oz = new Oz({ maxRetries: 0 });
  const core = new OzCore({ maxRetries: 0 });
  const echo = await oz.tools.execute('echo', { text: `oz-sdk on ${runtime}` });
  const funcs = await toolsExecute(core, 'echo', { text: `oz-sdk/funcs on ${runtime}` });
  const tools = await oz.mcp.listTools();
  const missing = await oz.tools.execute('no-such-tool', { text: 'x' }).catch((error) => error);
  // Classes reached through the code table only (a minifier may inline them there, each named `class`).
  const noAgent = await oz.agents.execute({ agent: 'no-such-agent', user_request: 'x' }).catch((error) => error);
  return Response.json({
    runtime,
    echo: echo.content,
    funcs: funcs.content,
    mcpClient: oz.mcp instanceof McpClient,
    mcpTools: tools.length,
    error: {
      name: missing.name,
      code: missing.code,
      status: missing.status,
      typed: missing instanceof ToolNotFoundError && missing instanceof OzAPIError,
      rateLimited: missing instanceof RateLimitedError,
    },
    tableClasses: {
      own: noAgent instanceof ERROR_CODES.agent_not_found.class,
      sibling: noAgent instanceof ERROR_CODES.workflow_not_found.class,
    },
  });
}
