import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { controlMcpServer, type ControlMcpOptions } from './controlMcpServer.js';

/** Request headers a new `Request` may not carry over (the connection's own). */
const CONNECTION_HEADERS = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];

/**
 * The answer of one `POST /_oz/mcp` (Streamable HTTP, stateless: a server and a transport per request, JSON
 * answers, no `Mcp-Session-Id`). `text` is the body, already read within the server's body limit. Loaded on first
 * use (an optional part): the MCP SDK stays out of what `oz-sdk/testing` loads at start.
 */
export async function answerMcpRequest(request: Request, text: string, options: ControlMcpOptions): Promise<Response> {
  const server = controlMcpServer(options);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  const headers = new Headers(request.headers);
  for (const name of CONNECTION_HEADERS) headers.delete(name);
  try {
    return await transport.handleRequest(new Request(request.url, { method: request.method, headers, body: text }));
  } finally {
    await server.close();
  }
}
