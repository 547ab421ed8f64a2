import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { normalizeAddress } from './connection.js';

/**
 * Connections one client address may hold open on a listener unless `maxConnectionsPerAddress` says otherwise:
 * a quarter of the listener's 16384, four times a load test's 1024 connections from one address.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 4096;

/**
 * Holds each client address to `perAddress` open connections on a listener. At the bound a new connection makes
 * room by closing the address's oldest idle one (no request in flight: a keep-alive connection between requests,
 * or one that sent nothing yet); when every one is busy, the new connection is closed as soon as it is accepted
 * (as Node does past `maxConnections`). So one client's idle keep-alive connections never lock the others of its
 * address (every client of 127.0.0.1) out. Answers the listener's open sockets (for `close()`).
 */
export function boundConnectionsPerAddress(server: Server, perAddress: number): Set<Socket> {
  const sockets = new Set<Socket>();
  // Per address, its open sockets in the order they connected (the oldest first).
  const byAddress = new Map<string, Set<Socket>>();
  const inFlight = new Map<Socket, number>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left <= 0) inFlight.delete(socket);
      else inFlight.set(socket, left);
    });
  });
  server.on('connection', (socket: Socket) => {
    const address = normalizeAddress(socket.remoteAddress);
    let open = byAddress.get(address);
    if (open === undefined) byAddress.set(address, (open = new Set()));
    if (open.size >= perAddress) {
      const idle = oldestIdle(open, inFlight);
      if (idle === null) {
        socket.destroy();
        return;
      }
      open.delete(idle);
      idle.destroy();
    }
    open.add(socket);
    sockets.add(socket);
    const held = open;
    socket.once('close', () => {
      sockets.delete(socket);
      inFlight.delete(socket);
      held.delete(socket);
      if (held.size === 0 && byAddress.get(address) === held) byAddress.delete(address);
    });
  });
  return sockets;
}

function oldestIdle(open: ReadonlySet<Socket>, inFlight: ReadonlyMap<Socket, number>): Socket | null {
  for (const socket of open) if (!inFlight.has(socket)) return socket;
  return null;
}
