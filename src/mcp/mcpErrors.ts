import { OzError } from '../core/errors/errors.js';

/** A JSON-RPC error answered by the MCP server. */
export class OzMcpError extends OzError {
  override name = 'OzMcpError';
  /** The JSON-RPC error code (`-32601` unknown method, `-32602` invalid params, ...). */
  readonly code: number;
  /** The error's `data`, when the server sent one. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(`MCP error ${code}: ${message}`);
    this.code = code;
    this.data = data;
  }
}

/** JSON-RPC -32601: the server has no such method. */
export class McpMethodNotFoundError extends OzMcpError {
  override name = 'McpMethodNotFoundError';
}

/** JSON-RPC -32602: the params were invalid, or the tool is outside the key's fence (see {@link McpToolFencedError}). */
export class McpInvalidParamsError extends OzMcpError {
  override name = 'McpInvalidParamsError';
}

/**
 * JSON-RPC -32602 for a tool outside the key's fence: the key is fenced to other tools. Ask the operator to
 * widen the fence, or use a key without one.
 */
export class McpToolFencedError extends McpInvalidParamsError {
  override name = 'McpToolFencedError';
  /** The tool that was called. */
  readonly tool: string;

  constructor(tool: string, message: string, data?: unknown) {
    super(-32602, message, data);
    this.tool = tool;
  }
}

/** A tool answered with `isError: true`: the call reached the tool, which reported a failure. */
export class McpToolError extends OzError {
  override name = 'McpToolError';
  /** The tool that was called. */
  readonly tool: string;
  /** The tool's text answer. */
  readonly text: string;

  constructor(tool: string, text: string) {
    super(`The MCP tool ${tool} failed: ${text}`);
    this.tool = tool;
    this.text = text;
  }
}

/** The typed error of a JSON-RPC error object; `tool` names the tool of a `tools/call`. */
export function mcpErrorFor(error: { code: number; message: string; data?: unknown }, tool?: string): OzMcpError {
  if (error.code === -32601) return new McpMethodNotFoundError(error.code, error.message, error.data);
  if (error.code === -32602) {
    if (tool !== undefined && /fence/i.test(`${error.message} ${JSON.stringify(error.data ?? '')}`)) {
      return new McpToolFencedError(tool, error.message, error.data);
    }
    return new McpInvalidParamsError(error.code, error.message, error.data);
  }
  return new OzMcpError(error.code, error.message, error.data);
}
