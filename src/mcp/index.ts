/**
 * `oz-sdk/mcp`: the client of the Oz MCP server, also reachable as `client.mcp` on an `Oz` client.
 *
 * @packageDocumentation
 */
export { McpClient, MCP_PROTOCOL_VERSION, type McpAnswer, type McpCallOptions, type McpFormat } from './mcpClient.js';
export { McpInvalidParamsError, McpMethodNotFoundError, McpToolError, McpToolFencedError, OzMcpError, mcpErrorFor } from './mcpErrors.js';
