import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestHandler } from './app.js';
import { Connection, normalizeAddress, type Surface } from './connection.js';
import { guardStreamedBody } from './streamGuard.js';

/** A running HTTP listener. */
export interface HttpListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the handler on a real socket through `@hono/node-server` (which leaves the global `Request` and
 * `Response` alone: `overrideGlobalObjects: false`). The client's address is the socket's; a dropped
 * connection destroys the socket.
 */
export async function listenHttp(handler: RequestHandler, surface: Surface, port: number, host: string): Promise<HttpListener> {
  const listener = getRequestListener(
    (request, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      const socket = incoming.socket;
      const conn = new Connection('http', surface, normalizeAddress(socket.remoteAddress), () => socket.destroy());
      // A cut stream: the head and what was sent go out, then the socket closes without the body's end.
      const endCut = () => (outgoing.headersSent ? socket.destroySoon() : setTimeout(endCut, 1));
      return handler(request, conn).then((response) => guardStreamedBody(response, null, conn, endCut));
    },
    { overrideGlobalObjects: false },
  );
  const server: Server = createServer(listener);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
