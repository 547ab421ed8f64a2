import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request held open by the server: the test writes to it and sees when the client closes it. */
export interface HeldExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly body: string;
  /** Resolves when the connection of this answer is closed (by either side). */
  readonly closed: Promise<void>;
  /** Whether the answer was ended by the server (false when the client closed it first). */
  readonly ended: () => boolean;
}

/**
 * A local HTTP server on 127.0.0.1 (port 0) that hands every request to `onRequest` and keeps the answer open
 * until the test ends it: the way to see that a client closes a stream's connection at once.
 */
export class HoldingServer {
  readonly exchanges: HeldExchange[] = [];
  onRequest: (exchange: HeldExchange) => void = (exchange) => exchange.response.writeHead(599).end();
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let ended = false;
        response.on('finish', () => (ended = true));
        const closed = new Promise<void>((resolve) => response.on('close', () => resolve()));
        const exchange: HeldExchange = { request, response, body: Buffer.concat(chunks).toString('utf8'), closed, ended: () => ended };
        this.exchanges.push(exchange);
        this.onRequest(exchange);
      });
    });
  }

  static async start(): Promise<HoldingServer> {
    const server = new HoldingServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.#url = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}`;
    return server;
  }

  get url(): string {
    return this.#url;
  }

  /** Closes every connection and the server. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
