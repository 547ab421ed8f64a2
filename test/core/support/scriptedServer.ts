import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** `Date.now()` when the request's body had arrived. */
  at: number;
}

/** What the server does with one request. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with `content-type: application/json` unless set). */
  body?: unknown;
  /** Wait this long before answering (or destroying); cancelled if the client goes away. */
  delayMs?: number;
  /** Destroy the socket instead of answering: the client sees a reset connection. */
  destroy?: boolean;
  /** Send the body in parts, each after its own delay (after the headers); `body` is ignored. */
  parts?: { delayMs?: number; data: string }[];
  /** With `parts`: destroy the socket after the last part instead of ending the answer (a cut stream). */
  cutAfterParts?: boolean;
}

/** An answer, or a function of the request (and its index among all requests) that gives one. */
export type Script = ScriptedAnswer | ((request: RecordedRequest, index: number) => ScriptedAnswer);

const unscripted: Script = (request) => ({ status: 599, body: `unscripted request ${request.method} ${request.url}` });

/**
 * A local HTTP server on 127.0.0.1 (port 0, real sockets) that answers from a queue of scripted answers and
 * records every request. When the queue is empty it answers `fallback` (by default a 599 that names the request).
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  fallback: Script = unscripted;
  readonly #queue: Script[] = [];
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const request: RecordedRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const index = this.requests.push(request) - 1;
        const script = this.#queue.shift() ?? this.fallback;
        const answer = typeof script === 'function' ? script(request, index) : script;
        const respond = () => {
          if (answer.destroy) {
            req.socket.destroy();
            return;
          }
          const headers: Record<string, string> = { ...answer.headers };
          let body: string;
          if (typeof answer.body === 'string' || answer.body === undefined) {
            body = answer.body ?? '';
          } else {
            body = JSON.stringify(answer.body);
            if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
          }
          res.writeHead(answer.status ?? 200, headers);
          if (answer.parts) return void this.#sendParts(res, answer.parts, answer.cutAfterParts ?? false);
          res.end(body);
        };
        if (!answer.delayMs) return respond();
        const timer = setTimeout(respond, answer.delayMs);
        res.on('close', () => clearTimeout(timer));
      });
    });
  }

  async #sendParts(res: ServerResponse, parts: { delayMs?: number; data: string }[], cut: boolean): Promise<void> {
    res.flushHeaders();
    for (const part of parts) {
      if (part.delayMs) await new Promise((resolve) => setTimeout(resolve, part.delayMs));
      if (res.destroyed) return;
      res.write(part.data);
    }
    if (cut) res.socket?.destroy();
    else res.end();
  }

  /** Starts a server on 127.0.0.1 at a free port. */
  static async start(): Promise<ScriptedServer> {
    const server = new ScriptedServer();
    await server.#listen();
    return server;
  }

  /**
   * One server for a test file: started before its tests, reset before each test (then answering `fallback`
   * when given, for requests no test scripted), closed after them (the vitest hooks are registered here, so each
   * file does not write them again).
   */
  static forSuite(fallback?: ScriptedServer['fallback']): ScriptedServer {
    const server = new ScriptedServer();
    beforeAll(() => server.#listen());
    afterAll(() => server.close());
    beforeEach(() => {
      server.reset();
      if (fallback) server.fallback = fallback;
    });
    return server;
  }

  async #listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return this.#url;
  }

  /** Queues answers for the next requests, in order. */
  answer(...scripts: Script[]): this {
    this.#queue.push(...scripts);
    return this;
  }

  /** Forgets queued answers, recorded requests and any fallback set. */
  reset(): void {
    this.fallback = unscripted;
    this.#queue.length = 0;
    this.requests.length = 0;
  }

  /** Closes every connection and the server. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
