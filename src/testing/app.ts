import { Hono } from 'hono';
import type { Connection } from './connection.js';
import { answerUnrouted, dispatch, type OperationHandler } from './dispatch.js';
import { OPERATIONS, type OperationInfo } from './operations.js';
import type { ServerCore } from './serverCore.js';

/** The one request handler of every mount: the API and the separate MCP URL. */
export type RequestHandler = (request: Request, conn: Connection) => Promise<Response>;

type Env = { Bindings: { conn: Connection } };

function pathPattern(op: OperationInfo): RegExp {
  const source = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (op.slashParams?.includes(name) ? '.+' : '[^/]+'));
  return new RegExp(`^${source}$`);
}

/**
 * Builds the handler: a hono app with one route per operation of openapi.json (compiled once), 404
 * `not_found` for every other method or path, CORS preflights, and the MCP server at its own URL.
 */
export function createRequestHandler(core: ServerCore, handlers: Readonly<Record<string, OperationHandler>>): RequestHandler {
  const app = new Hono<Env>();
  const knownPaths = OPERATIONS.map(pathPattern);
  const mcpOp = OPERATIONS.find((o) => o.id === 'mcpRequest')!;
  const mcpHandler = handlers.mcpRequest!;

  for (const op of OPERATIONS) {
    const handler = handlers[op.id];
    if (!handler) throw new Error(`No handler for operation ${op.id}`);
    app.on(op.method, op.routePath, (c) => dispatch(core, op, handler, c.req.raw, c.env.conn, c.req.param() as Record<string, string>));
  }
  // The MCP transport probes GET for a server-initiated stream; 405 says there is none (MCP spec).
  app.get('/v1/mcp', (c) => answerUnrouted(core, 'method_not_allowed', c.req.raw, c.env.conn));
  app.options('*', (c) => {
    const path = new URL(c.req.url).pathname;
    return answerUnrouted(core, knownPaths.some((p) => p.test(path)) ? 'preflight' : 'not_found', c.req.raw, c.env.conn);
  });
  app.notFound((c) => answerUnrouted(core, 'not_found', c.req.raw, c.env.conn));

  const mcpPath = new URL(core.options.mcpUrl).pathname;
  const mcpSurface = (request: Request, conn: Connection): Promise<Response> => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '') || '/';
    if (path === mcpPath) {
      if (request.method === 'POST') return dispatch(core, mcpOp, mcpHandler, request, conn, {});
      if (request.method === 'OPTIONS') return answerUnrouted(core, 'preflight', request, conn);
      if (request.method === 'GET') return answerUnrouted(core, 'method_not_allowed', request, conn);
    }
    return answerUnrouted(core, 'not_found', request, conn);
  };

  return (request, conn) => {
    if (conn.surface === 'mcp') return mcpSurface(request, conn);
    // hono would answer HEAD with the GET route; the spec has every method without a route answer 404.
    if (request.method === 'HEAD') return answerUnrouted(core, 'not_found', request, conn);
    return Promise.resolve(app.fetch(request, { conn }));
  };
}
