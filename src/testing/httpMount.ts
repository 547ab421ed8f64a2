import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestHandler } from './app.js';
import { Connection, normalizeAddress, type RequestReader, type Surface } from './connection.js';
import { guardStreamedBody } from './streamGuard.js';

/**
 * Reads headers and body from Node's request itself: `@hono/node-server` would build a full Fetch-API
 * `Request` (with its abort signals and a web stream) the first time the body is read.
 */
class IncomingReader implements RequestReader {
  constructor(private readonly incoming: IncomingMessage) {}

  header(name: string): string | null {
    const value = this.incoming.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  text(): Promise<string> {
    const incoming = this.incoming;
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      incoming.once('error', reject);
    });
  }
}

/** Tells `@hono/node-server` the answer was written already (it only reads its headers). */
const ALREADY_SENT = new Response(null, { headers: { 'x-hono-already-sent': '1' } });

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
      const conn = new Connection('http', surface, normalizeAddress(socket.remoteAddress), new IncomingReader(incoming), () => socket.destroy(), { host, port: socket.localPort ?? 0 });
      return handler(request, conn).then((answer) => {
        // A dropped connection: the socket is destroyed already, nothing is written.
        if (answer.kind === 'dropped') return ALREADY_SENT;
        if (answer.kind === 'response') {
          // An event stream (or the control plane's answer). A cut stream: the head and what was sent go out,
          // then the socket closes without the body's end.
          const endCut = (): unknown => (outgoing.headersSent ? socket.destroySoon() : setTimeout(endCut, 1));
          return guardStreamedBody(answer.response, null, conn, endCut);
        }
        // A buffered answer goes to the socket without a Response in between; a string body leaves in the
        // same write as the head.
        const { parts } = answer;
        const { body, headers } = parts;
        if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
        outgoing.writeHead(parts.status, headers);
        outgoing.end(body ?? undefined);
        return ALREADY_SENT;
      });
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
