import { Hono } from 'hono';
import { responseReply, type Answer } from '../wire/answer.js';
import type { Connection } from '../wire/connection.js';
import { answerUnrouted, dispatch, type DispatchPort } from './dispatch.js';
import type { OperationHandler } from './pipeline.js';
import { OPERATIONS, type OperationInfo } from '../contract/operations.js';
import { urlPath } from '../support/requestUrl.js';
import { RouteCache } from './routeCache.js';

/** The one request handler of every mount: the API and the separate MCP URL. */
export type RequestHandler = (request: Request, conn: Connection) => Promise<Answer>;

/** What a route gets besides the request: the connection, the URL's path as sent, and where it puts its answer. */
interface Routed {
  readonly port: RoutingPort;
  readonly routes: RouteCache<OperationRoute>;
  readonly conn: Connection;
  readonly path: string;
  answer: Promise<Answer> | null;
}

/** An operation's route as hono matched it: what a remembered path dispatches to without the router. */
interface OperationRoute {
  readonly op: OperationInfo;
  readonly handler: OperationHandler;
  readonly params: Readonly<Record<string, string>>;
}

/** Paths remembered per server: many more than a test or a load run sends again, few enough to cost little memory. */
const ROUTE_CACHE_LIMIT = 4096;

type Env = { Bindings: Routed };

/** hono wants a `Response` back from a route: the answer goes in the bindings instead, and this one is thrown away. */
const ROUTED = new Response(null);

function answerWith(env: Routed, answer: Promise<Answer>): Response {
  env.answer = answer;
  return ROUTED;
}

function pathPattern(op: OperationInfo): RegExp {
  const source = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (op.slashParams?.includes(name) ? '.+' : '[^/]+'));
  return new RegExp(`^${source}$`);
}

/** What routing works with: the dispatcher's port, and where the MCP surface answers. */
export interface RoutingPort extends DispatchPort {
  readonly options: DispatchPort['options'] & { readonly mcpUrl: string };
}

/** The router of a set of handlers: built once, shared by every server and session (each request brings its server's port). */
interface Router {
  readonly app: Hono<Env>;
  readonly knownPaths: readonly RegExp[];
}

const routers = new WeakMap<Readonly<Record<string, OperationHandler>>, Router>();

function routerOf(handlers: Readonly<Record<string, OperationHandler>>): Router {
  let router = routers.get(handlers);
  if (router) return router;
  const app = new Hono<Env>();
  const knownPaths = OPERATIONS.map(pathPattern);
  for (const op of OPERATIONS) {
    const handler = handlers[op.id];
    if (!handler) throw new Error(`No handler for operation ${op.id}`);
    app.on(op.method, op.routePath, (c) => {
      const params = Object.freeze(c.req.param() as Record<string, string>);
      c.env.routes.remember(c.req.raw.method, c.env.path, { op, handler, params });
      return answerWith(c.env, dispatch(c.env.port, op, handler, c.req.raw, c.env.conn, params));
    });
  }
  // The MCP transport probes GET for a server-initiated stream; 405 says there is none (MCP spec).
  app.get('/v1/mcp', (c) => answerWith(c.env, answerUnrouted(c.env.port, 'method_not_allowed', c.req.raw, c.env.conn)));
  app.options('*', (c) => {
    const path = new URL(c.req.url).pathname;
    return answerWith(c.env, answerUnrouted(c.env.port, knownPaths.some((p) => p.test(path)) ? 'preflight' : 'not_found', c.req.raw, c.env.conn));
  });
  app.notFound((c) => answerWith(c.env, answerUnrouted(c.env.port, 'not_found', c.req.raw, c.env.conn)));
  // hono builds its router on the first match: built here, once, so a server's first call costs what the next do.
  app.router.match('GET', '/');
  router = { app, knownPaths };
  routers.set(handlers, router);
  return router;
}

/**
 * Builds the handler: a hono app with one route per operation of openapi.json (compiled once per process), 404
 * `not_found` for every other method or path, CORS preflights, and the MCP server at its own URL.
 */
export function createRequestHandler(port: RoutingPort, handlers: Readonly<Record<string, OperationHandler>>): RequestHandler {
  const { app } = routerOf(handlers);
  const routes = new RouteCache<OperationRoute>(ROUTE_CACHE_LIMIT);
  const mcpOp = OPERATIONS.find((o) => o.id === 'mcpRequest')!;
  const mcpHandler = handlers.mcpRequest!;

  const mcpPath = new URL(port.options.mcpUrl).pathname;
  const mcpSurface = (request: Request, conn: Connection): Promise<Answer> => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '') || '/';
    if (path === mcpPath) {
      if (request.method === 'POST') return dispatch(port, mcpOp, mcpHandler, request, conn, {});
      if (request.method === 'OPTIONS') return answerUnrouted(port, 'preflight', request, conn);
      if (request.method === 'GET') return answerUnrouted(port, 'method_not_allowed', request, conn);
    }
    return answerUnrouted(port, 'not_found', request, conn);
  };

  return (request, conn) => {
    if (conn.surface === 'mcp') return mcpSurface(request, conn);
    // hono would answer HEAD with the GET route; the spec has every method without a route answer 404.
    if (request.method === 'HEAD') return answerUnrouted(port, 'not_found', request, conn);
    const path = urlPath(request.url);
    const known = routes.get(request.method, path);
    if (known) return dispatch(port, known.op, known.handler, request, conn, known.params);
    const env: Routed = { port, routes, conn, path, answer: null };
    // Every route answers through the bindings; hono's own answer comes back only when it failed itself.
    return Promise.resolve(app.fetch(request, env)).then((response) => env.answer ?? responseReply(response));
  };
}
