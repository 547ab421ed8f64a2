import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { OzMockError } from '../contract/errors.js';
import { isPlainObject } from '../support/plainObject.js';
import { CONTROL_OPENAPI } from './controlOpenapi.js';
import { controlRequest, controlTools, SERVER_INFO_TOOL, type ControlTool } from './controlTools.js';
import type { ControlCall } from './remote.js';

/** What an MCP server of a control plane drives and says about itself. */
export interface ControlMcpOptions {
  /** The control plane's routes (a running oz-mock's over HTTP, or the server's own in process). */
  readonly call: ControlCall;
  /** A session's MCP server: its id (its routes are `/_oz/sessions/{id}/...`); none for the server's. */
  readonly session?: string;
  /** The MCP `instructions`: the server's URLs and keys, and how the tools fit together. */
  readonly instructions: string;
  /** What the `server_info` tool answers: the server's URLs and keys. */
  about(): Promise<Record<string, unknown>>;
}

const INFO_TOOL: Tool = {
  name: SERVER_INFO_TOOL,
  description: "The oz-mock server's URLs (API, MCP, control plane) and keys: what a test or a client needs to reach it.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

function asMcpTool(tool: ControlTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
  };
}

/** An answer as a tool's result: the JSON as text, and as `structuredContent`. */
function answered(answer: unknown): CallToolResult {
  const structured = isPlainObject(answer) ? answer : { result: answer ?? null };
  return { content: [{ type: 'text', text: JSON.stringify(answer ?? null, null, 2) }], structuredContent: structured };
}

/**
 * A failed call as a tool's error result: the control plane's error envelope as JSON text, its HTTP status beside
 * the code. No `structuredContent`: a client checks it against the tool's output schema, which is the success's.
 */
function failed(err: unknown): CallToolResult {
  const error =
    err instanceof OzMockError
      ? { ...err.toObject(), status: err.status }
      : { code: 'unreachable', message: `The control plane did not answer: ${err instanceof Error ? err.message : String(err)}` };
  return { content: [{ type: 'text', text: JSON.stringify({ error }, null, 2) }], isError: true };
}

async function callTool(options: ControlMcpOptions, tools: readonly ControlTool[], name: string, args: unknown): Promise<CallToolResult> {
  if (name === SERVER_INFO_TOOL) return answered(await options.about());
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name} (known: ${[SERVER_INFO_TOOL, ...tools.map((t) => t.name)].join(', ')}).`);
  try {
    const request = controlRequest(tool, args, options.session === undefined ? '' : `/sessions/${encodeURIComponent(options.session)}`);
    return answered(await options.call(request.method, request.path, request.body));
  } catch (err) {
    return failed(err);
  }
}

/**
 * An MCP server of a control plane: one tool per control action (the routes of `CONTROL_TOOL_NAMES`, each
 * tool's schemas those of the control plane's OpenAPI document) and `server_info`. A session's server offers
 * the routes a session has, and each acts on that session.
 */
export function controlMcpServer(options: ControlMcpOptions): Server {
  const tools = controlTools(options.session === undefined ? 'server' : 'session');
  const server = new Server(
    { name: 'oz-mock', title: 'oz-mock control plane', version: CONTROL_OPENAPI.info.version },
    { capabilities: { tools: {} }, instructions: options.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [INFO_TOOL, ...tools.map(asMcpTool)] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(options, tools, request.params.name, request.params.arguments));
  return server;
}
