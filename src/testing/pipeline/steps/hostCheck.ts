import type { RequestContext } from '../requestContext.js';
import { OzMockError } from '../../contract/errors.js';
import type { RequestStep } from '../requestStep.js';

const LOOPBACK_BINDS: ReadonlySet<string> = new Set(['localhost', '::1', '[::1]']);
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** Whether a listener's address is a loopback one (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * DNS-rebinding protection (MCP, "protocol details"): on a listener bound to a loopback address, a request whose
 * `Host` is not a loopback name with the listener's port answers 403 `forbidden_host`. A page on another site
 * whose name was rebound to 127.0.0.1 sends its own name as `Host`, so it never reaches the MCP server.
 * In process and through msw there is no listener, and nothing to check.
 */
export function checkLoopbackHost(ctx: RequestContext): void {
  const listener = ctx.conn.listener;
  if (!listener || !isLoopbackBind(listener.host)) return;
  const host = (ctx.header('host') ?? '').toLowerCase();
  const allowed = LOOPBACK_NAMES.some((name) => host === `${name}:${listener.port}` || (listener.port === 80 && host === name));
  if (!allowed) {
    throw new OzMockError(403, 'forbidden_host', `Host ${host || '(none)'} is not allowed: this server on a loopback address answers only 127.0.0.1, localhost or [::1] with port ${listener.port}.`, {
      hint: 'A request from a page whose name was rebound to a loopback address (DNS rebinding) is refused; call the server by a loopback name.',
    });
  }
}

/** Step: DNS-rebinding protection comes before the key is even looked at (as the MCP SDK's own middleware does). */
export const hostCheck: RequestStep = (ctx, op) => {
  if (op.plane === 'mcp') checkLoopbackHost(ctx);
};
