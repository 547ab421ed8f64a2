import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { normalizeAddress } from './connection.js';

/**
 * Connections one client address may hold open on a listener unless `maxConnectionsPerAddress` says otherwise:
 * a quarter of the listener's 16384, four times a load test's 1024 connections from one address.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 4096;

/**
 * Holds each client address to `perAddress` open connections on a listener: a connection past it is closed as
 * soon as it is accepted (as Node does past `maxConnections`), so one client's idle keep-alive connections
 * cannot fill the listener and lock the others out. Answers the listener's open sockets (for `close()`).
 */
export function boundConnectionsPerAddress(server: Server, perAddress: number): Set<Socket> {
  const sockets = new Set<Socket>();
  const byAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = normalizeAddress(socket.remoteAddress);
    const open = byAddress.get(address) ?? 0;
    if (open >= perAddress) {
      socket.destroy();
      return;
    }
    byAddress.set(address, open + 1);
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  return sockets;
}
