/**
 * The soak's hostile server (issue 45): beside the embedded server the honest clients call, a loopback server that
 * answers what a broken or malicious service would: JSON far past the client's `maxResponseBytes` (generated as the
 * socket drains, never held), small `Content-Encoding: br` and `gzip` bodies that inflate past it, an error answer
 * past it, and YAML whose aliases would expand a thousand-million-fold. A client of the SDK calls it in a loop;
 * every outcome is checked: a too-large answer must be `OzResponseTooLargeError` after one request, the YAML must
 * parse (aliases are references, never expanded), and any error must be an `OzError`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { Oz, OzError, OzResponseTooLargeError } from '../../../src/index.js';

/** What the hostile server answered, and how the client took it. */
export interface HostileServerFigures {
  /** Calls made to the hostile server, by the kind of answer. */
  byAnswer: Record<string, number>;
  /** Calls that ended with `OzResponseTooLargeError`. */
  tooLarge: number;
  /** Aliased YAML documents parsed. */
  aliasedParsed: number;
  /** Errors that were not an `OzError`: must be 0. */
  untypedErrors: number;
  /** Outcomes other than the one expected (`unexpectedOutcomes` lists them): must be 0. */
  unexpected: number;
  unexpectedOutcomes: string[];
  /** Requests the hostile server got: one per call (a too-large answer is never retried). */
  requests: number;
}

const MiB = 1024 * 1024;
/** The client's bound: small, so that each round is quick. */
const BOUND = 4 * MiB;
const KINDS = ['oversized', 'br', 'gzip', 'oversizedError', 'aliasedYaml'] as const;
type AnswerKind = (typeof KINDS)[number];

// 9 levels of 10 aliases: 10^9 leaves if expanded.
const ALIASED_YAML = [
  'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from({ length: 8 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`),
].join('\n');

const INFLATED = Buffer.from(JSON.stringify({ ok: true, content: 'z'.repeat(64 * MiB), execution_id: 'exe_1', request_id: 'req_1' }));
const PAD = 'x'.repeat(64 * 1024);

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** About `bytes` of JSON, one 64 KiB item at a time as the socket drains, until the client lets go. */
async function generated(res: ServerResponse, status: number, bytes: number): Promise<void> {
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(status, { 'content-type': 'application/json' });
  res.write('{"error":{"code":"internal_error","message":"');
  for (let written = 0; written < bytes && !closed; written += PAD.length) {
    if (!res.write(PAD)) await drained(res);
  }
  if (!closed) res.end('"}}');
}

function answer(kind: AnswerKind, res: ServerResponse, compressed: { br: Buffer; gzip: Buffer }): void {
  switch (kind) {
    case 'oversized':
      return void generated(res, 200, 256 * MiB);
    case 'oversizedError':
      return void generated(res, 500, 256 * MiB);
    case 'br':
    case 'gzip':
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': kind }).end(compressed[kind]);
      return;
    case 'aliasedYaml':
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(ALIASED_YAML);
  }
}

/** Runs the hostile server and its client until `done()` says so (at least one round of every kind of answer). */
export async function runHostileServer(done: () => boolean): Promise<HostileServerFigures> {
  const figures: HostileServerFigures = { byAnswer: {}, tooLarge: 0, aliasedParsed: 0, untypedErrors: 0, unexpected: 0, unexpectedOutcomes: [], requests: 0 };
  const compressed = { br: brotliCompressSync(INFLATED, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }), gzip: gzipSync(INFLATED, { level: 9 }) };
  let next: AnswerKind = 'oversized';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    figures.requests++;
    req.resume();
    answer(next, res, compressed);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const oz = new Oz({
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'ozk_HostileServer0123456789abcdefgh',
    maxResponseBytes: BOUND,
    logLevel: 'off',
  });
  const unexpected = (what: string) => {
    figures.unexpected++;
    if (figures.unexpectedOutcomes.length < 10) figures.unexpectedOutcomes.push(what);
  };
  try {
    for (let round = 0; round < KINDS.length || !done(); round++) {
      const kind = KINDS[round % KINDS.length]!;
      next = kind;
      figures.byAnswer[kind] = (figures.byAnswer[kind] ?? 0) + 1;
      const before = figures.requests;
      try {
        const data = await oz.tools.execute('echo', { text: 'hostile' }, kind === 'aliasedYaml' ? { format: 'yaml' } : {});
        if (kind !== 'aliasedYaml') unexpected(`${kind}: answered`);
        else if (typeof data === 'object' && data !== null && 'l8' in data) figures.aliasedParsed++;
        else unexpected(`${kind}: parsed as ${typeof data}`);
      } catch (error) {
        if (!(error instanceof OzError)) figures.untypedErrors++;
        if (error instanceof OzResponseTooLargeError && kind !== 'aliasedYaml') figures.tooLarge++;
        else unexpected(`${kind}: ${String(error)}`);
      }
      if (figures.requests - before !== 1) unexpected(`${kind}: ${figures.requests - before} requests`);
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return figures;
}
