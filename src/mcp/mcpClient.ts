import type { APIPromise } from '../core/result/apiPromise.js';
import { OzError } from '../core/errors/errors.js';
import { isJsonObject, unexpectedAnswer } from '../core/errors/unexpectedAnswer.js';
import type { RequestOptions } from '../core/shared/requestOptions.js';
import type { Transport } from '../core/transport.js';
import { SDK_VERSION } from '../core/shared/version.js';
import type { JsonRequestOptions } from '../core/result/resultTypes.js';
import { Mcp, OPERATIONS } from '../generated/index.js';
import type { OperationError } from '../generated/operationErrors.js';
import type {
  Execution,
  ExecutionResult,
  JsonRpcRequest,
  JsonRpcResponse,
  McpCallToolResult,
  McpInitializeResult,
  McpTool,
  WhoAmI,
} from '../generated/index.js';
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

  /**
   * Sends one JSON-RPC request and answers its `result`; a JSON-RPC error throws its typed error. Only the response
   * whose `id` is this request's is its answer: one with another id is an `OzError` (an HTTP answer carries the
   * response to its own request; nothing else will come), as is an answer that is no JSON-RPC response.
   */
  async call<R>(method: string, params?: Record<string, unknown>, options?: JsonRequestOptions, tool?: string): Promise<R> {
    const id = this.#nextId++;
    const answer = await this.#send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, options);
    return resultOf<R>(method, id, answer, tool);
  }

  /** Opens the session: `initialize`, then the `notifications/initialized` notification. */
  async initialize(options?: JsonRequestOptions): Promise<McpInitializeResult> {
    const id = this.#nextId++;
    const { data, response } = await this.#send(
      {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'oz-sdk', version: SDK_VERSION } },
      },
      options,
    ).withResponse();
    const result = resultOf<McpInitializeResult>('initialize', id, data);
    this.#session = response.headers.get('mcp-session-id') ?? undefined;
    await this.#send({ jsonrpc: '2.0', method: 'notifications/initialized' }, options);
    return result;
  }

  /**
   * Every tool the key may call (a key fenced to some tools sees only those), across pages. An empty page ends
   * the walk whatever its `nextCursor` says; a cursor answered twice is an `OzError` (the walk would never end).
   */
  async listTools(options?: JsonRequestOptions): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.call<{ tools?: unknown; nextCursor?: unknown }>('tools/list', cursor ? { cursor } : undefined, options);
      if (!Array.isArray(page.tools)) throw unexpectedAnswer('MCP tools/list', 'a list of tools (`tools`)', page);
      if (page.tools.length === 0) break;
      tools.push(...(page.tools as McpTool[]));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor !== '' ? page.nextCursor : undefined;
      if (cursor !== undefined && seen.has(cursor))
        throw new OzError(`The MCP server answered tools/list with the cursor ${JSON.stringify(cursor)} twice; the list would never end.`);
      if (cursor !== undefined) seen.add(cursor);
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
  followup<O extends McpCallOptions = McpCallOptions>(executionId: string, userRequest: string, options?: O): Promise<McpAnswer<ExecutionResult, O>> {
    return this.#answer<ExecutionResult, O>('svc_followup', { execution_id: executionId, user_request: userRequest }, options);
  }

  async #answer<S, O>(tool: string, args: Record<string, unknown>, options: McpCallOptions | undefined): Promise<McpAnswer<S, O>> {
    const { format = 'markdown', ...rest } = options ?? {};
    const result: unknown = await this.callTool(tool, format === 'json' ? { ...args, format: 'json' } : args, rest);
    if (!isJsonObject(result) || !Array.isArray(result.content)) throw unexpectedAnswer(`MCP tool ${tool}`, 'a tool result (`content`)', result);
    const text = result.content.flatMap((c: unknown) => (isJsonObject(c) && typeof c.text === 'string' ? [c.text] : [])).join('\n');
    if (result.isError === true) throw new McpToolError(tool, text);
    if (format === 'markdown') return text as McpAnswer<S, O>;
    if (isJsonObject(result.structuredContent)) return result.structuredContent as McpAnswer<S, O>;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new OzError(`The MCP tool ${tool} answered no structured content and no JSON text.`, { cause });
    }
    if (!isJsonObject(parsed)) throw unexpectedAnswer(`MCP tool ${tool}`, 'a JSON object', parsed);
    return parsed as McpAnswer<S, O>;
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

/**
 * The `result` of the JSON-RPC response to request `id`, or the typed error of its `error`. JSON-RPC 2.0 answers
 * an error it could not tie to a request (a parse error) with `id: null`: that one is this request's too.
 */
function resultOf<R>(method: string, id: number, answer: unknown, tool?: string): R {
  const what = `MCP ${method}`;
  if (!isJsonObject(answer)) throw unexpectedAnswer(what, 'a JSON-RPC response', answer);
  const error = answer.error;
  if (answer.id !== id && !(answer.id === null && error !== undefined)) {
    throw new OzError(
      `The MCP server answered ${method} (id ${id}) with the response to another request (id ${describeId(answer.id)}); it is not this call's answer.`,
    );
  }
  if (error !== undefined) {
    if (!isJsonObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string')
      throw unexpectedAnswer(what, 'a JSON-RPC error (`code`, `message`)', error);
    throw mcpErrorFor({ code: error.code, message: error.message, data: error.data }, tool);
  }
  if (!isJsonObject(answer.result)) throw unexpectedAnswer(what, 'a JSON-RPC result object', answer.result);
  return answer.result as R;
}

function describeId(id: unknown): string {
  return id === undefined ? 'none' : typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : `of type ${id === null ? 'null' : typeof id}`;
}
