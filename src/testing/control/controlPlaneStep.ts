import type { ServerExchange } from '../pipeline/exchange.js';
import type { ServerStep } from '../pipeline/serverStep.js';
import { urlPath } from '../support/requestUrl.js';
import { answerControlRequest, CONTROL_PREFIX, type ControlTarget } from './controlPlane.js';

/** The server's control plane, as the chain holds it: its target (the default world, with the sessions) and token. */
export interface ControlScope {
  /** `null`: the plane is off (`adminToken: false`, a session's own mount) and `/_oz/` is an unknown API route. */
  readonly control: { readonly target: ControlTarget; readonly token: string } | null;
}

/**
 * Step: requests under `/_oz/` on the API's URL (every mount) are the control plane's: not journaled, answered
 * without CORS, for the server and all its sessions. Before the sessions step: an admin token selects no world.
 */
export const controlPlane: ServerStep<ServerExchange<ControlScope>> = (ctx, next) => {
  const { control } = ctx.scope;
  if (control === null || ctx.conn.surface !== 'api') return next();
  const path = urlPath(ctx.request.url);
  if (path !== CONTROL_PREFIX && !path.startsWith(`${CONTROL_PREFIX}/`)) return next();
  return answerControlRequest(ctx.request, ctx.conn, control.target, control.token);
};
