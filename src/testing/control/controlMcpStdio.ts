import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { controlMcpServer, type ControlMcpOptions } from './controlMcpServer.js';

/**
 * Serves the control plane's MCP server on `input` and `output` (`oz-mock mcp`'s stdio) until `input` ends, then
 * runs `onEnd`. Loaded on first use (an optional part): the MCP SDK stays out of what `oz-mock` loads at start.
 */
export async function serveMcpOnStdio(options: ControlMcpOptions, input: Readable, output: Writable, onEnd: () => void): Promise<void> {
  const server = controlMcpServer(options);
  input.once('end', () => void server.close().finally(onEnd));
  await server.connect(new StdioServerTransport(input, output));
}
