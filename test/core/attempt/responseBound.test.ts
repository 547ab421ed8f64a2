import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorFromResponse, Oz, OzError, OzResponseTooLargeError, OzUsageError, type ClientOptions } from '../../../src/index.js';
import { KEY, rejectionOf } from '../support/clients.js';

// maxResponseBytes (contract: "Trust at the edges, round 3"): the client reads at most the bound of one answer,
// counted after decompression; past it the attempt is aborted with OzResponseTooLargeError, never retried.

const MiB = 1024 * 1024;

/** What the loopback server answers next, and what it saw. */
interface Plan {
  status: number;
  contentType: string;
  encoding?: 'br' | 'gzip';
  /** A body held in memory (small, or compressed). */
  body?: Buffer;
  /** Extra headers of the answer. */
  headers?: Record<string, string>;
  /** A JSON body of this many bytes, generated chunk by chunk as the socket drains (never held whole). */
  generatedBytes?: number;
}

let plan: Plan;
let requests = 0;
let written = 0;
let httpServer: Server;
let baseURL: string;

const PAD = Buffer.alloc(64 * 1024 - 16, 'x').toString();

/** Until `res` drains or closes (its two listeners removed then). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** Writes a JSON document of about `bytes` bytes, one 64 KiB item at a time, waiting for the socket to drain. */
async function writeGenerated(res: ServerResponse, bytes: number): Promise<void> {
  let closed = false;
  res.on('close', () => (closed = true));
  res.write('{"data":[');
  for (let i = 0; written < bytes && !closed; i++) {
    const item = Buffer.from(`${i === 0 ? '' : ','}{"pad":"${PAD}"}`);
    written += item.byteLength;
    if (!res.write(item)) await drained(res);
  }
  if (!closed) res.end(']}');
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  requests++;
  req.resume();
  const headers: Record<string, string> = { 'content-type': plan.contentType };
  if (plan.encoding) headers['content-encoding'] = plan.encoding;
  Object.assign(headers, plan.headers);
  res.writeHead(plan.status, headers);
  if (plan.generatedBytes !== undefined) void writeGenerated(res, plan.generatedBytes);
  else res.end(plan.body);
}

beforeAll(async () => {
  httpServer = createServer(answer);
  httpServer.listen(0, '127.0.0.1');
  await once(httpServer, 'listening');
  baseURL = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => httpServer.close(resolve)));
beforeEach(() => {
  requests = 0;
  written = 0;
});

// A loopback server in a child process: GET /v1/tools/echo answers a small tool; POST .../execute a JSON document of
// `bytes` bytes generated as the socket drains; GET /report what it wrote.
const GENERATING_SERVER = `
const { createServer } = require('node:http');
const { once } = require('node:events');
const bytes = Number(process.argv[1]);
let written = 0, executes = 0;
const pad = Buffer.alloc(64 * 1024 - 16, 'x').toString();
createServer(async (req, res) => {
  req.resume();
  if (req.url === '/report') return res.end(JSON.stringify({ written, executes }));
  if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'echo', description: 'Echo' }));
  executes++;
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data":[');
  for (let i = 0; written < bytes && !closed; i++) {
    const item = (i === 0 ? '' : ',') + '{"pad":"' + pad + '"}';
    written += item.length;
    if (!res.write(item)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
  }
  if (!closed) res.end(']}');
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

async function generatingServer(bytes: number): Promise<{ url: string; child: ChildProcess; report: () => Promise<{ written: number; executes: number }> }> {
  const child = spawn(process.execPath, ['-e', GENERATING_SERVER, String(bytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${line.toString().trim()}`;
  return { url, child, report: async () => (await (await fetch(`${url}/report`)).json()) as { written: number; executes: number } };
}

// A full collection on demand (vitest runs the file without --expose-gc).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Bytes the process holds: its heap in use and its buffers, after a full collection. */
function heldMemory(): number {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const client = (options: Partial<ClientOptions> = {}) =>
  new Oz({ baseURL, apiKey: KEY, logLevel: 'off', maxRetries: 2, retry: { initialDelayMs: 1, maxDelayMs: 1 }, ...options });
const json = (value: unknown): Plan => ({ status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) });
const envelope = (content: string) => ({ ok: true, content, execution_id: 'exe_1', request_id: 'req_1' });

async function tooLarge(call: PromiseLike<unknown>, bound: number): Promise<OzResponseTooLargeError> {
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(OzResponseTooLargeError);
  expect(error).toBeInstanceOf(OzError);
  const typed = error as OzResponseTooLargeError;
  expect(typed).toMatchObject({ name: 'OzResponseTooLargeError', code: 'response_too_large', maxResponseBytes: bound });
  expect(typed.bytesRead).toBeGreaterThan(bound);
  expect(typed.message).toContain(`maxResponseBytes (${bound} bytes`);
  return typed;
}

describe('an answer past maxResponseBytes', () => {
  it('400 MiB of JSON against a 16 MiB bound: OzResponseTooLargeError, never retried, memory growth under the bound and a few MiB', async () => {
    // The server in a process of its own, so that this process's memory is the client's.
    const far = await generatingServer(400 * MiB);
    try {
      const bound = 16 * MiB;
      const oz = client({ baseURL: far.url, maxResponseBytes: bound });
      // A first call loads and compiles what a call runs: not part of the growth measured.
      expect(await oz.tools.get('echo')).toMatchObject({ name: 'echo' });
      // The memory the process holds (the heap in use and the bytes of its buffers) after a full collection,
      // sampled while the call reads: garbage the collector has not reached yet is not held.
      const before = heldMemory();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, heldMemory())), 5);
      try {
        const error = await tooLarge(oz.tools.execute('echo', { text: 'hi' }), bound);
        expect(error.bytesRead).toBeLessThan(bound + MiB);
      } finally {
        clearInterval(sampler);
      }
      expect(peak - before, 'held while reading').toBeGreaterThan(bound / 2);
      expect(peak - before, 'held while reading').toBeLessThan(bound + 6 * MiB);
      // Once the connection is closed (undici lets go of its last buffers then), the call holds nothing.
      await vi.waitFor(() => expect(heldMemory() - before, 'held after the call').toBeLessThan(4 * MiB), { timeout: 5_000, interval: 100 });
      // The server stopped writing soon after the bound: the attempt let go of the connection, and made one.
      expect(await far.report()).toMatchObject({ executes: 1 });
      expect((await far.report()).written, 'bytes the server wrote').toBeLessThan(bound + 32 * MiB);
    } finally {
      far.child.kill();
    }
  }, 30_000);

  it.each<['br' | 'gzip', (bytes: Buffer) => Buffer]>([
    ['br', (bytes) => brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })],
    ['gzip', (bytes) => gzipSync(bytes, { level: 9 })],
  ])('a small Content-Encoding: %s body that inflates past the bound is counted after decompression', async (encoding, compress) => {
    const inflated = Buffer.from(JSON.stringify(envelope('a'.repeat(8 * MiB))));
    const body = compress(inflated);
    expect(body.byteLength).toBeLessThan(64 * 1024);
    plan = { status: 200, contentType: 'application/json', encoding, body };
    await tooLarge(client({ maxResponseBytes: MiB }).tools.execute('echo', { text: 'hi' }), MiB);
    expect(requests).toBe(1);
    // Under a bound that holds it, the same answer is read whole.
    expect(await client({ maxResponseBytes: 16 * MiB }).tools.execute('echo', { text: 'hi' })).toEqual(JSON.parse(inflated.toString()));
  });

  it('the default bound is 64 MiB', async () => {
    plan = { status: 200, contentType: 'application/json', generatedBytes: 65 * MiB };
    await tooLarge(client().tools.execute('echo', { text: 'hi' }), 64 * MiB);
  }, 30_000);

  it("a call's maxResponseBytes is over its client's, Infinity lifts it, an answer of exactly the bound is read", async () => {
    const answerJSON = json(envelope('b'.repeat(2000)));
    plan = answerJSON;
    const size = answerJSON.body!.byteLength;
    await tooLarge(client({ maxResponseBytes: size }).tools.execute('echo', { text: 'hi' }, { maxResponseBytes: size - 1 }), size - 1);
    expect(await client({ maxResponseBytes: 10 }).tools.execute('echo', { text: 'hi' }, { maxResponseBytes: size })).toMatchObject({ ok: true });
    expect(await client({ maxResponseBytes: 10 }).tools.execute('echo', { text: 'hi' }, { maxResponseBytes: Infinity })).toMatchObject({ ok: true });
  });

  it.each([
    ['yaml', 'text/yaml', 'ok: true\ncontent: ' + 'c'.repeat(4000) + '\n'],
    ['markdown', 'text/markdown', '# Result\n\n' + 'c'.repeat(4000)],
    ['text', 'text/plain', 'c'.repeat(4000)],
  ] as const)('on the %s wire', async (format, contentType, body) => {
    plan = { status: 200, contentType, body: Buffer.from(body) };
    await tooLarge(client({ maxResponseBytes: 1000 }).tools.execute('echo', { text: 'hi' }, { format }), 1000);
  });

  it('an error answer (a 500 that would be retried) is bounded too, and not retried', async () => {
    plan = {
      status: 500,
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify({ error: { code: 'internal_error', message: 'x'.repeat(5000) } })),
    };
    await tooLarge(client({ maxResponseBytes: 1000 }).tools.get('echo'), 1000);
    expect(requests).toBe(1);
  });

  it('not even a shouldRetry that asks for every retry, nor x-should-retry: true, sends it again', async () => {
    plan = { ...json(envelope('e'.repeat(5000))), headers: { 'x-should-retry': 'true' } };
    const asked: unknown[] = [];
    const oz = client({ maxResponseBytes: 1000, retry: { initialDelayMs: 1, maxDelayMs: 1, shouldRetry: (error) => (asked.push(error), true) } });
    await tooLarge(oz.tools.execute('echo', { text: 'hi' }), 1000);
    expect(requests).toBe(1);
    expect(asked).toEqual([]);
  });

  it('through the raw client', async () => {
    plan = json({ name: 'echo', description: 'd'.repeat(5000) });
    await tooLarge(client({ maxResponseBytes: 1000 }).raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } }), 1000);
  });

  it("a stream's body is bounded by its events' own bound (maxEventBytes), not by maxResponseBytes", async () => {
    const event = `event: token\ndata: ${JSON.stringify({ delta: 'd'.repeat(500) })}\n\n`;
    const result = `event: result\ndata: ${JSON.stringify(envelope('done'))}\n\n`;
    plan = { status: 200, contentType: 'text/event-stream', body: Buffer.from(event.repeat(20) + result) };
    const stream = await client({ maxResponseBytes: 1000 }).agents.execute({ agent: 'writer', user_request: 'hi', stream: true });
    const names: string[] = [];
    for await (const item of stream) names.push(item.event);
    expect(names).toHaveLength(21);
  });

  it.each([0, -1, 1.5, Number.NaN, '1' as unknown as number])('maxResponseBytes %s is an OzUsageError before anything is sent', async (value) => {
    const callError = await rejectionOf(client().tools.execute('echo', { text: 'hi' }, { maxResponseBytes: value }));
    expect(callError).toBeInstanceOf(OzUsageError);
    expect((callError as Error).message).toMatch(/^maxResponseBytes must be a whole number of bytes >= 1 \(or Infinity\)/);
    // The client's option is refused where it is given.
    expect(() => client({ maxResponseBytes: value })).toThrow(OzUsageError);
    expect(requests).toBe(0);
  });
});

describe('errorFromResponse', () => {
  it('reads at most 64 MiB of an error body: a larger one is read as no body', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(MiB).fill(120);
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const error = await errorFromResponse(
      new Response(body, { status: 500, statusText: 'Internal Server Error', headers: { 'content-type': 'application/json' } }),
    );
    expect(error.status).toBe(500);
    expect(error.message).toContain('Internal Server Error');
    expect(pulled).toBeLessThan(70);
  });
});
