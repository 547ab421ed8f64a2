import type { APIPromise } from '../core/apiPromise.js';
import { OzError } from '../core/errors/errors.js';
import type { RequestOptions } from '../core/requestOptions.js';
import type { Transport } from '../core/transport.js';
import { SDK_VERSION } from '../core/version.js';
import type { JsonRequestOptions } from '../core/wire.js';
import { Mcp, OPERATIONS } from '../generated/index.js';
import type { OperationError } from '../generated/operationErrors.js';
import type { Execution, ExecutionResult, JsonRpcRequest, JsonRpcResponse, McpCallToolResult, McpInitializeResult, McpTool, WhoAmI } from '../generated/index.js';
import { McpToolError, mcpErrorFor } from './mcpErrors.js';

/** The MCP protocol revision this client speaks. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** How an MCP tool answers: `markdown` (the default) as text, `json` as a JSON document plus `structuredContent`. */
export type McpFormat = 'markdown' | 'json';

/** Per-call options of the MCP helpers. */
export interface McpCallOptions extends JsonRequestOptions {
  /** `markdown` (default) answers a string; `json` answers the typed `structuredContent`. */
  format?: McpFormat;
}

/** The answer of an MCP tool on the chosen format: markdown text, or the typed structured content. */
export type McpAnswer<S, O> = O extends { format: 'json' } ? S : string;

/**
 * The MCP server's client: the raw JSON-RPC `request` (generated) plus typed helpers. It talks to `OZ_MCP_URL`
 * when set (the MCP server's own address), else to `/v1/mcp` under the base URL, with the client's key, retries
 * and timeouts. Answers are read both as `application/json` and as one SSE `message` event.
 */
export class McpClient extends Mcp {
  readonly #transport: Transport;
  readonly #url: string | undefined;
  #nextId = 1;
  #session: string | undefined;

  /** @param url - The MCP server's own address (`{mcp_url}`), or undefined for `/v1/mcp` under the base URL. */
  constructor(transport: Transport, url: string | undefined) {
    super(transport);
    this.#transport = transport;
    this.#url = url;
  }

  /** Sends one raw JSON-RPC message to the MCP server (`OZ_MCP_URL` or `/v1/mcp`) and answers the raw answer. */
  override request(body: JsonRpcRequest, options?: JsonRequestOptions): APIPromise<JsonRpcResponse | undefined, OperationError<'mcpRequest'>> {
    return this.#send(body, options);
  }

  /** Sends one JSON-RPC request and answers its `result`; a JSON-RPC error throws its typed error. */
  async call<R>(method: string, params?: Record<string, unknown>, options?: JsonRequestOptions, tool?: string): Promise<R> {
    const answer = (await this.#send({ jsonrpc: '2.0', id: this.#nextId++, method, ...(params ? { params } : {}) }, options)) as
      | JsonRpcResponse
      | undefined;
    if (!answer) throw new OzError(`The MCP server answered ${method} with no body.`);
    if (answer.error) throw mcpErrorFor(answer.error, tool);
    return answer.result as R;
  }

  /** Opens the session: `initialize`, then the `notifications/initialized` notification. */
  async initialize(options?: JsonRequestOptions): Promise<McpInitializeResult> {
    const { data, response } = await this.#send(
      {
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'initialize',
        params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'oz-sdk', version: SDK_VERSION } },
      },
      options,
    ).withResponse();
    this.#session = response.headers.get('mcp-session-id') ?? undefined;
    if (!data) throw new OzError('The MCP server answered initialize with no body.');
    if (data.error) throw mcpErrorFor(data.error);
    await this.#send({ jsonrpc: '2.0', method: 'notifications/initialized' }, options);
    return data.result as McpInitializeResult;
  }

  /** Every tool the key may call (a key fenced to some tools sees only those), across pages. */
  async listTools(options?: JsonRequestOptions): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call<{ tools: McpTool[]; nextCursor?: string }>('tools/list', cursor ? { cursor } : undefined, options);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** Calls a tool and answers its raw result. A JSON-RPC error (a fenced tool: `McpToolFencedError`) throws. */
  callTool(name: string, args: Record<string, unknown> = {}, options?: JsonRequestOptions): Promise<McpCallToolResult> {
    return this.call<McpCallToolResult>('tools/call', { name, arguments: args }, options, name);
  }

  /** Who the key is: user, auth type, tier, key label and the current rate-limit window (`svc_whoami`). */
  async whoami(options?: JsonRequestOptions): Promise<WhoAmI> {
    return this.#answer<WhoAmI, { format: 'json' }>('svc_whoami', {}, { ...options, format: 'json' });
  }

  /** An execution and its result (`svc_get_result`): markdown by default, the typed record with `format: 'json'`. */
  getResult<O extends McpCallOptions = McpCallOptions>(executionId: string, options?: O): Promise<McpAnswer<Execution, O>> {
    return this.#answer<Execution, O>('svc_get_result', { execution_id: executionId }, options);
  }

  /** A follow-up request on a finished execution (`svc_followup`): markdown by default, typed with `format: 'json'`. */
  followup<O extends McpCallOptions = McpCallOptions>(
    executionId: string,
    userRequest: string,
    options?: O,
  ): Promise<McpAnswer<ExecutionResult, O>> {
    return this.#answer<ExecutionResult, O>('svc_followup', { execution_id: executionId, user_request: userRequest }, options);
  }

  async #answer<S, O>(tool: string, args: Record<string, unknown>, options: McpCallOptions | undefined): Promise<McpAnswer<S, O>> {
    const { format = 'markdown', ...rest } = options ?? {};
    const result = await this.callTool(tool, format === 'json' ? { ...args, format: 'json' } : args, rest);
    const text = result.content.map((c) => c.text).join('\n');
    if (result.isError) throw new McpToolError(tool, text);
    if (format === 'markdown') return text as McpAnswer<S, O>;
    if (result.structuredContent) return result.structuredContent as McpAnswer<S, O>;
    try {
      return JSON.parse(text) as McpAnswer<S, O>;
    } catch (cause) {
      throw new OzError(`The MCP tool ${tool} answered no structured content and no JSON text.`, { cause });
    }
  }

  #send(body: JsonRpcRequest, options: RequestOptions | undefined): APIPromise<JsonRpcResponse | undefined, OperationError<'mcpRequest'>> {
    const headers = this.#session ? { 'mcp-session-id': this.#session, ...options?.headers } : options?.headers;
    return this.#transport.request<JsonRpcResponse | undefined, OperationError<'mcpRequest'>>(
      OPERATIONS.mcpRequest,
      { body, ...(this.#url ? { url: this.#url } : {}) },
      { ...options, ...(headers ? { headers } : {}) },
    );
  }
}
