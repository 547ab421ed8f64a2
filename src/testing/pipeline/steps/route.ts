import { findRoute, isRoutePath } from '../../../generated/routes.js';
import { OzMockError } from '../../contract/errors.js';
import { SERVER_OPERATIONS_BY_ID, type OperationInfo } from '../../contract/operations.js';
import type { RouteKind } from '../../harness/serverEvents.js';
import { preflightHeaders } from '../../wire/cors.js';
import type { Reply } from '../../wire/requestOutcome.js';
import { urlPath } from '../../support/requestUrl.js';
import { decodedParams, routingPath } from '../../support/routingPath.js';
import type { ServerExchange } from '../exchange.js';
import { RequestContext } from '../requestContext.js';
import type { ServerStep } from '../serverStep.js';

/** What the route table made of a request: its operation and parameters, or how it is answered without one. */
type Routed =
  { readonly op: OperationInfo; readonly params: Readonly<Record<string, string>> } | { readonly op: null; readonly kind: Exclude<RouteKind, 'operation'> };

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** A request on the API's surface: its operation from the generated route table, a preflight, 405 or 404. */
function apiRoute(request: Request): Routed {
  const { method } = request;
  const path = routingPath(urlPath(request.url));
  const matched = findRoute(method, path);
  if (matched !== null) return { op: SERVER_OPERATIONS_BY_ID[matched.route.operationId], params: decodedParams(matched.params) };
  // The MCP transport probes GET for a server-initiated stream; 405 says there is none (MCP spec).
  if (method === 'GET' && path === '/v1/mcp') return { op: null, kind: 'method_not_allowed' };
  if (method === 'OPTIONS') return { op: null, kind: isRoutePath(path) ? 'preflight' : 'not_found' };
  // HEAD has no route either: every method without one answers 404.
  return { op: null, kind: 'not_found' };
}

/** The MCP URL's path of each `mcpUrl` (the options' string: read once, not parsed per request). */
const MCP_PATHS = new Map<string, string>();

/** A request on the separate MCP server's surface: its one operation at its path, a preflight, 405 or 404. */
function mcpRoute(request: Request, mcpUrl: string): Routed {
  let mcpPath = MCP_PATHS.get(mcpUrl);
  if (mcpPath === undefined) MCP_PATHS.set(mcpUrl, (mcpPath = new URL(mcpUrl).pathname));
  const path = urlPath(request.url).replace(/\/+$/, '') || '/';
  if (path === mcpPath) {
    if (request.method === 'POST') return { op: SERVER_OPERATIONS_BY_ID.mcpRequest, params: NO_PARAMS };
    if (request.method === 'OPTIONS') return { op: null, kind: 'preflight' };
    if (request.method === 'GET') return { op: null, kind: 'method_not_allowed' };
  }
  return { op: null, kind: 'not_found' };
}

/** The answer of a request that matched no operation: a CORS preflight, 405 on the MCP URL's GET, or 404. */
function unroutedAnswer(ctx: RequestContext, kind: Exclude<RouteKind, 'operation'>, journalPath: string): Reply {
  if (kind === 'preflight') return ctx.buffered(204, { ...ctx.headers(null), ...preflightHeaders((name) => ctx.header(name)) }, null);
  if (kind === 'method_not_allowed') {
    return ctx.error(new OzMockError(405, 'method_not_allowed', 'This MCP server offers no server-initiated event stream: send JSON-RPC messages with POST.'), {
      allow: 'POST, OPTIONS',
    });
  }
  return ctx.error(new OzMockError(404, 'not_found', `No route for ${ctx.request.method} ${journalPath}.`));
}

/**
 * Step: the request's operation, matched against the generated route table (`src/generated/routes.ts`: no router
 * in between, no cache in front), and its context (`ctx`) made; a request that matched none is answered here.
 */
export const route: ServerStep<ServerExchange> = (ctx, next) => {
  const { request, conn, world, entry } = ctx;
  const routed = conn.surface === 'mcp' ? mcpRoute(request, world.parts.options.mcpUrl) : apiRoute(request);
  const context = new RequestContext(world.parts, routed.op, request, conn, routed.op === null ? NO_PARAMS : routed.params, ctx.requestId);
  if (routed.op === null) {
    ctx.routeTo(routed.kind, context);
    return unroutedAnswer(context, routed.kind, entry?.path ?? urlPath(request.url));
  }
  ctx.routeTo('operation', context);
  if (entry !== null) entry.operationId = routed.op.id;
  return next();
};
