import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestOutcome } from '../wire/requestOutcome.js';
import type { RequestHandler } from '../pipeline/serverStep.js';
import { Connection, normalizeAddress, type AnswerParts, type RequestBody, type RequestReader, type Surface } from '../wire/connection.js';
import { nodeRequest, plainHref } from './nodeRequest.js';
import { writeStream } from './socketSink.js';
import { boundConnectionsPerAddress } from '../wire/connectionBound.js';

/**
 * Hands over the headers and the body of Node's request itself: `@hono/node-server` would build a full Fetch-API
 * `Request` (with its abort signals and a web stream) the first time the body is read.
 */
class IncomingReader implements RequestReader {
  readonly #incoming: IncomingMessage;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
  }

  header(name: string): string | null {
    const value = this.#incoming.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  get body(): RequestBody {
    return { kind: 'node', incoming: this.#incoming };
  }

  headerSource(): () => Headers {
    // Node's raw name/value list, as `@hono/node-server` reads it (HTTP/2 pseudo-headers left out).
    const raw = this.#incoming.rawHeaders;
    return () => {
      const headers = new Headers();
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58) headers.append(raw[i]!, raw[i + 1]!);
      return headers;
    };
  }
}

/**
 * A lingering close (as nginx's `lingering_time` and `lingering_timeout`): the rest of a body is read and dropped
 * until it ends, until none came for {@link LINGER_IDLE_MS}, or for {@link LINGER_MAX_MS} at most.
 */
const LINGER_IDLE_MS = 2000;
const LINGER_MAX_MS = 10_000;

/**
 * An answer given while the request's body is still arriving (a 413, a 401 before the body was read, any
 * answer that did not need the body) closes the connection: `Connection: close`, then a lingering close. Node
 * would end the socket at once, and a socket closed while its client still sends makes the client's next write
 * fail, and its socket go, before it read the answer.
 */
function closeWhenBodyPending(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (incoming.complete || outgoing.headersSent) return;
  outgoing.setHeader('connection', 'close');
  const socket = incoming.socket;
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.writable) this.end();
    let idle: ReturnType<typeof setTimeout>;
    const close = (): void => {
      clearTimeout(idle);
      clearTimeout(cap);
      this.destroy();
    };
    const cap = setTimeout(close, LINGER_MAX_MS);
    const rearm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(close, LINGER_IDLE_MS);
      idle.unref();
    };
    cap.unref();
    rearm();
    incoming.removeAllListeners('data');
    incoming.on('data', rearm).once('end', close).once('error', close).resume();
  };
}

/** Tells `@hono/node-server` the answer was written already (it only reads its headers). */
const ALREADY_SENT = new Response(null, { headers: { 'x-hono-already-sent': '1' } });

/** A buffered answer goes to the socket without a `Response` in between; a string body leaves in the same write as the head. */
function writeParts(parts: AnswerParts, incoming: IncomingMessage, outgoing: ServerResponse): void {
  closeWhenBodyPending(incoming, outgoing);
  const { body, headers } = parts;
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  outgoing.writeHead(parts.status, headers);
  outgoing.end(body ?? undefined);
}

/**
 * What the mount writes itself: a buffered answer's parts, or an event stream (its events flushed to the
 * socket as the stream makes them, see `socketSink.ts`).
 */
function writeAnswer(answer: Extract<RequestOutcome, { kind: 'written' | 'stream' }>, incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (answer.kind === 'written') return writeParts(answer.parts, incoming, outgoing);
  closeWhenBodyPending(incoming, outgoing);
  writeStream(answer.stream, answer.status, answer.headers, incoming, outgoing);
}

/**
 * The listener's connection settings, set on purpose rather than left to Node's defaults: a load test's 1024
 * concurrent connections are all accepted and kept, and an idle keep-alive connection is never closed under a
 * client that is about to reuse it (the cause of `SocketError: other side closed`).
 */
export const LISTENER_LIMITS = {
  /** Connections waiting to be accepted (Node's default is 511; the kernel caps it at `net.core.somaxconn`). */
  backlog: 4096,
  /** Open connections at most; beyond it a new connection is closed at once (Node's default: no limit). */
  maxConnections: 16_384,
  /**
   * How long an idle keep-alive connection stays open (Node's default 5 s). Longer than clients keep theirs
   * (undici 4 s, Node's agent 5 s, Go 90 s is the exception), so the client closes first and never sends on a
   * connection the server is closing.
   */
  keepAliveTimeout: 65_000,
  /** How long a client may take to send the request head (more than `keepAliveTimeout`, as Node advises). */
  headersTimeout: 66_000,
  /** How long a client may take to send a whole request (the head and the body); Node's default. */
  requestTimeout: 300_000,
} as const;

/** A running HTTP listener. */
export interface HttpListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the handler on a real socket. A plain request (see `plainHref`) goes straight from Node's request to the
 * handler and its buffered answer straight to the socket: no `Request` is built unless something asks for one
 * (`nodeRequest.ts`), no `Response` is made; an event stream too goes straight to the socket (`socketSink.ts`).
 * A request whose URL needs the URL parser, and a `Response` answer (the control plane's), go through
 * `@hono/node-server` (which leaves the global `Request` and `Response` alone: `overrideGlobalObjects: false`). The client's address is the socket's; a dropped connection destroys the
 * socket.
 */
const CAPITALS = /[A-Z]/;

export async function listenHttp(
  handler: RequestHandler,
  surface: Surface,
  port: number,
  host: string,
  maxConnectionsPerAddress: number,
): Promise<HttpListener> {
  const server: Server = createServer(
    {
      keepAliveTimeout: LISTENER_LIMITS.keepAliveTimeout,
      headersTimeout: LISTENER_LIMITS.headersTimeout,
      requestTimeout: LISTENER_LIMITS.requestTimeout,
      noDelay: true,
      keepAlive: true,
    },
    requestListener(handler, surface, host),
  );
  server.maxConnections = LISTENER_LIMITS.maxConnections;
  const sockets = boundConnectionsPerAddress(server, maxConnectionsPerAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTENER_LIMITS.backlog }, () => {
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

/** What Node's server calls for each request of `listenHttp`: the fast path, or `@hono/node-server`'s. */
function requestListener(handler: RequestHandler, surface: Surface, host: string): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const connectionOf = (incoming: IncomingMessage): Connection => {
    const socket = incoming.socket;
    return new Connection('http', surface, normalizeAddress(socket.remoteAddress), new IncomingReader(incoming), () => socket.destroy(), {
      host,
      port: socket.localPort ?? 0,
    });
  };
  /** What `@hono/node-server` writes: an answer, or a `Response` made already (see `writeResponse`). */
  const viaHono = (answer: RequestOutcome, incoming: IncomingMessage, outgoing: ServerResponse): Response => {
    // A dropped connection: the socket is destroyed already, nothing is written.
    if (answer.kind === 'dropped') return ALREADY_SENT;
    if (answer.kind === 'response') {
      // The control plane's or the dashboard's answer.
      closeWhenBodyPending(incoming, outgoing);
      return answer.response;
    }
    writeAnswer(answer, incoming, outgoing);
    return ALREADY_SENT;
  };
  const slowPath = getRequestListener(
    (request, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      return handler(request, connectionOf(incoming)).then((answer) => viaHono(answer, incoming, outgoing));
    },
    { overrideGlobalObjects: false },
  );
  // A `Response` the fast path made (the control plane's answer, an error) is written by
  // `@hono/node-server`, as on the slow path. Its clean-up of an unread body is left out: it would only start
  // now, after the body was read, and wait for an end that came already (Node discards an unread body itself).
  const responses = new WeakMap<IncomingMessage, Response | Promise<Response>>();
  const writeResponse = getRequestListener((_request, env) => responses.get((env as HttpBindings).incoming)!, {
    overrideGlobalObjects: false,
    autoCleanupIncoming: false,
  });
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const host = incoming.headers.host;
    // A host name is case-insensitive (RFC 9110, 4.2.3); `@hono/node-server` refuses one with capitals (400).
    if (host !== undefined && CAPITALS.test(host)) incoming.headers.host = host.toLowerCase();
    const href = plainHref(incoming);
    if (href === undefined) {
      void slowPath(incoming, outgoing);
      return;
    }
    const c = connectionOf(incoming);
    let answered: Promise<RequestOutcome>;
    try {
      answered = handler(nodeRequest(incoming, outgoing, href), c);
    } catch (error) {
      // As `@hono/node-server` does with a handler that throws at once: the failure answer below.
      answered = Promise.reject(error);
    }
    answered
      .then((answer) => {
        if (answer.kind === 'dropped') return;
        if (answer.kind !== 'response') return writeAnswer(answer, incoming, outgoing);
        responses.set(incoming, viaHono(answer, incoming, outgoing));
        void writeResponse(incoming, outgoing);
      })
      .catch((error: unknown) => {
        // What `@hono/node-server` answers when the handler (or the writing of its answer) fails: an empty 500
        // (504 for a timeout).
        responses.set(incoming, Promise.reject(error));
        void writeResponse(incoming, outgoing);
      });
  };
  return listener;
}
