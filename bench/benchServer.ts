/**
 * The servers of the benchmarks, each in a process of its own so that the client measured and the server it
 * calls do not share one event loop (the machine has 2 cores: one for each side). Started by
 * `serverProcess.ts`; answers its addresses on the IPC channel and exits when the channel closes.
 *
 *   node --import tsx bench/benchServer.ts oz <url of the built oz-sdk/testing>
 *                                                 the embedded Oz server, on 127.0.0.1 (random port)
 *   node --import tsx bench/benchServer.ts hono   a bare hono app on @hono/node-server's `serve()`, answering a
 *                                                 fixed JSON (the size of an `echo` result) to any request
 *   node --import tsx bench/benchServer.ts oz-stream <url>
 *                                                 the embedded Oz server with no pause between tokens (as
 *                                                 `oz-mock --token-ms 0`)
 *   node --import tsx bench/benchServer.ts sse <file>
 *                                                 a bare `node:http` SSE server answering any request with the
 *                                                 events of <file>, one `res.write` per event in a loop
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationId } from '../src/testing/index.js';

/** What a bench server sends its parent once it listens. */
export interface BenchServerReady {
  readonly url: string;
  readonly apiKey: string;
}

/** A question the parent asks the embedded server's process, and its answer (`{ id, answer }`). */
export type BenchServerQuery =
  | { readonly id: number; readonly query: 'journalClear' }
  | { readonly id: number; readonly query: 'journalCount'; readonly operationId: string }
  /** A full garbage collection first, then `process.memoryUsage()`. */
  | { readonly id: number; readonly query: 'memoryAfterGc' };

/** The body of the bare handler: the shape and size of a `tools.execute('echo')` answer. */
export const FIXED_JSON = {
  ok: true,
  content: 'hello',
  execution_id: 'exe_0123456789abcdefghijklmnopqrstuv',
  request_id: 'req_0123456789abcdefghijklmn',
};

interface Started {
  ready: BenchServerReady;
  close: () => Promise<void>;
  answer?: (query: BenchServerQuery) => unknown;
}

async function startOz(testingSpecifier: string, tokenMs?: number): Promise<Started> {
  const { createOzServer } = (await import(testingSpecifier)) as typeof import('../src/testing/index.js');
  // The default rate limit (100000 requests a minute per key) would answer 429 in the middle of the latency and
  // throughput runs, which send more than that: lifted here, nothing else changed.
  const server = createOzServer({ rateLimit: { limit: 1e9 }, ...(tokenMs === undefined ? {} : { timing: { tokenMs } }) });
  const listener = await server.listen({ host: '127.0.0.1' });
  return {
    ready: { url: listener.url, apiKey: server.apiKey },
    close: async () => {
      await listener.close();
      await server.close();
    },
    answer: (q) => {
      if (q.query === 'journalClear') return server.journal.clear();
      if (q.query === 'journalCount') return server.journal.count({ operationId: q.operationId as OperationId });
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage();
    },
  };
}

async function startHono(): Promise<Started> {
  const app = new Hono();
  app.all('*', (c) => c.json(FIXED_JSON));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    ready: { url: `http://127.0.0.1:${port}`, apiKey: 'none' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The bare SSE server: the same event bytes for every request, written one event at a time as Node's docs show. */
async function startBareSse(file: string): Promise<Started> {
  const events = readFileSync(file, 'utf8').split(/(?<=\n\n)/);
  const server = createServer({ keepAlive: true, noDelay: true, keepAliveTimeout: 65_000 }, (req, res) => {
    req.resume();
    req.once('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      for (const event of events) res.write(event);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ready: { url: `http://127.0.0.1:${port}`, apiKey: 'none' },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function start(kind: string | undefined, arg: string | undefined): Promise<Started | undefined> {
  if (kind === 'hono') return startHono();
  if (!arg) return undefined;
  if (kind === 'oz') return startOz(arg);
  if (kind === 'oz-stream') return startOz(arg, 0);
  if (kind === 'sse') return startBareSse(arg);
  return undefined;
}

const kind = process.argv[2];
if (!process.send) throw new Error('benchServer.ts runs as a child of the benchmarks (it needs an IPC channel).');
const started = await start(kind, process.argv[3]);
if (!started) throw new Error(`Unknown bench server kind: ${kind}`);
process.on('message', (message: BenchServerQuery) => {
  process.send!({ id: message.id, answer: started.answer?.(message) ?? null });
});
process.once('disconnect', () => {
  void started.close().finally(() => process.exit(0));
});
process.send({ ready: started.ready });
