import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import type { Connection } from '../../wire/connection.js';
import { OzMockError } from '../../contract/errors.js';

const LOOPBACK_BINDS: ReadonlySet<string> = new Set(['localhost', '::1', '[::1]']);
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** Whether a listener's address is a loopback one (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * DNS-rebinding protection (MCP, "protocol details"; the contract's "Hostile input"): on a listener bound to a
 * loopback address, a request whose `Host` is not a loopback name with the listener's port is refused with 403
 * `forbidden_host`, or `null` when it may pass. A page on another site whose name was rebound to 127.0.0.1
 * sends its own name as `Host`, so it never reaches the server. In process and through msw there is no
 * listener, and nothing to check.
 */
export function foreignHost(conn: Connection, hostHeader: string | null): OzMockError | null {
  const listener = conn.listener;
  if (!listener || !isLoopbackBind(listener.host)) return null;
  const host = (hostHeader ?? '').toLowerCase();
  if (LOOPBACK_NAMES.some((name) => host === `${name}:${listener.port}` || (listener.port === 80 && host === name))) return null;
  return new OzMockError(
    403,
    'forbidden_host',
    `Host ${host || '(none)'} is not allowed: this server on a loopback address answers only 127.0.0.1, localhost or [::1] with port ${listener.port}.`,
    {
      hint: 'A request from a page whose name was rebound to a loopback address (DNS rebinding) is refused; call the server by a loopback name.',
    },
  );
}

/**
 * Step: the Host check, in front of every surface of a listener: the API, MCP, `/health`, the dashboard and the
 * control plane. A refused request reaches none of them (it is not journaled) and its body is never read; the
 * answer is the error envelope as JSON, with `x-request-id` and `X-Error-Code` and no CORS headers.
 */
export const hostCheck: ServerStep<ServerExchange> = (ctx, next) => {
  const { conn } = ctx;
  if (conn.listener === null) return next();
  const refused = foreignHost(conn, conn.reader.header('host'));
  if (refused === null) return next();
  // Only the HTTP mount has a listener: its answer goes to the socket as parts.
  const headers = { 'content-type': 'application/json', 'x-request-id': ctx.requestId, 'x-error-code': refused.code, 'cache-control': 'no-store' };
  return { kind: 'written', parts: { status: refused.status, headers, body: JSON.stringify({ error: refused.toObject() }) } };
};
