import { findRoute, isRoutePath } from '../../generated/routes.js';
import type { OperationId } from '../../generated/operations.js';
import type { RequestOutcome } from '../wire/requestOutcome.js';
import type { Connection } from '../wire/connection.js';
import { answerUnrouted, dispatch, type DispatchNeeds } from './dispatch.js';
import type { OperationHandler } from './pipeline.js';
import { SERVER_OPERATIONS_BY_ID } from '../contract/operations.js';
import { urlPath } from '../support/requestUrl.js';
import { decodedParams, routingPath } from '../support/routingPath.js';

/** The one request handler of every mount: the API and the separate MCP URL. */
export type RequestHandler = (request: Request, conn: Connection) => Promise<RequestOutcome>;

/** Every operation's handler, by operationId: a missing one, or one for no operation, is a compile error. */
export type OperationHandlers = Readonly<Record<OperationId, OperationHandler>>;

/** What routing works with: the dispatcher's parts, and where the MCP surface answers. */
export interface RoutingNeeds extends DispatchNeeds {
  readonly options: DispatchNeeds['options'] & { readonly mcpUrl: string };
}

/** Answers a request on the API's surface: its operation from the route table, a preflight, or 404. */
function answerApi(parts: RoutingNeeds, handlers: OperationHandlers, request: Request, conn: Connection): Promise<RequestOutcome> {
  const { method } = request;
  const path = routingPath(urlPath(request.url));
  const matched = findRoute(method, path);
  if (matched !== null) {
    const { operationId } = matched.route;
    return dispatch(parts, SERVER_OPERATIONS_BY_ID[operationId], handlers[operationId], request, conn, decodedParams(matched.params));
  }
  // The MCP transport probes GET for a server-initiated stream; 405 says there is none (MCP spec).
  if (method === 'GET' && path === '/v1/mcp') return answerUnrouted(parts, 'method_not_allowed', request, conn);
  if (method === 'OPTIONS') return answerUnrouted(parts, isRoutePath(path) ? 'preflight' : 'not_found', request, conn);
  // HEAD has no route either: every method without one answers 404.
  return answerUnrouted(parts, 'not_found', request, conn);
}

/**
 * Builds the handler: each request matched against the generated route table (`src/generated/routes.ts`) and
 * handed to its operation's handler, 404 `not_found` for every other method or path, CORS preflights, and the MCP
 * server at its own URL.
 */
export function createRequestHandler(parts: RoutingNeeds, handlers: OperationHandlers): RequestHandler {
  const mcpOp = SERVER_OPERATIONS_BY_ID.mcpRequest;
  const mcpPath = new URL(parts.options.mcpUrl).pathname;
  const mcpSurface = (request: Request, conn: Connection): Promise<RequestOutcome> => {
    const path = urlPath(request.url).replace(/\/+$/, '') || '/';
    if (path === mcpPath) {
      if (request.method === 'POST') return dispatch(parts, mcpOp, handlers.mcpRequest, request, conn, {});
      if (request.method === 'OPTIONS') return answerUnrouted(parts, 'preflight', request, conn);
      if (request.method === 'GET') return answerUnrouted(parts, 'method_not_allowed', request, conn);
    }
    return answerUnrouted(parts, 'not_found', request, conn);
  };
  return (request, conn) => (conn.surface === 'mcp' ? mcpSurface(request, conn) : answerApi(parts, handlers, request, conn));
}
