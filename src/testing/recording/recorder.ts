import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { EventTimeline, type RecordedEvent } from './eventTimeline.js';
import { harEntry, type Har, type SeenBody } from './har.js';
import { HarFileWriter } from './harFile.js';
import { matchOperation } from './operationMatch.js';
import { stubsFromHar, type LeftOutEntry } from './recordedStubs.js';
import { credentialValues, redactText } from './redaction.js';

/** How much of each body (request and answer) a recording keeps by default: 1 MiB. The rest streams through. */
export const RECORDED_BODY_BYTES = 1024 * 1024;

/** Where and how `oz-mock record` listens and writes. */
export interface RecorderOptions {
  /** The service's base URL (`https://api.example.com`); a path is kept as the prefix of every request. */
  readonly target: string;
  /** The folder of `recording.har` and `stubs.json` (made when missing). */
  readonly outDir: string;
  /** Default 0 (a free port). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default {@link RECORDED_BODY_BYTES}. */
  readonly maxRecordedBytes?: number;
}

/** What a stopped recording wrote. */
export interface RecordingSummary {
  readonly exchanges: number;
  readonly stubs: number;
  /** The recorded exchanges that gave no stub, and why. */
  readonly leftOut: readonly LeftOutEntry[];
}

/** A running recording proxy. */
export interface Recorder {
  /** The proxy's base URL: point the client here. */
  readonly url: string;
  readonly harPath: string;
  readonly stubsPath: string;
  /** Stops listening, ends exchanges under way (recorded as cut), writes `stubs.json`. */
  close(): Promise<RecordingSummary>;
}

// Connection-level headers are the proxy's own on each side; `host` is the target's.
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

/** The first `limit` bytes of a body seen chunk by chunk, and its whole length. */
class BodyTap {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  size = 0;
  constructor(readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.#kept >= this.limit) return;
    const part = chunk.length <= this.limit - this.#kept ? chunk : chunk.subarray(0, this.limit - this.#kept);
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  seen(): SeenBody {
    // A cut inside a character leaves U+FFFD at the end: drop it.
    const text = new TextDecoder().decode(Buffer.concat(this.#chunks));
    const truncated = this.size > this.#kept;
    return { text: truncated ? text.replace(/\uFFFD$/, '') : text, size: this.size, truncated };
  }
}

function pairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** The events of a streamed answer for its HAR entry: all of them, or none when the body outgrew the recording. */
function eventsOf(timeline: EventTimeline | null): { events?: readonly RecordedEvent[] } {
  const seen = timeline?.events();
  return seen?.complete ? { events: seen.events } : {};
}

/** Starts a recording proxy in front of `options.target`. */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`--target must be an http or https URL, got ${options.target}`);
  const prefix = target.pathname.replace(/\/+$/, '');
  const limit = options.maxRecordedBytes ?? RECORDED_BODY_BYTES;
  mkdirSync(options.outDir, { recursive: true });
  const harPath = join(options.outDir, 'recording.har');
  const stubsPath = join(options.outDir, 'stubs.json');
  const writer = new HarFileWriter(harPath);
  // Every key forwarded so far: scrubbed from everything written, wherever it appears.
  const secrets = new Set<string>();
  const underWay = new Set<{ stop(): void; done: Promise<void> }>();
  const sockets = new Set<Socket>();
  const client = target.protocol === 'https:' ? https : http;

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = Date.now();
    const requestHeaders = pairs(req.rawHeaders);
    for (const secret of credentialValues(requestHeaders)) secrets.add(secret);
    const forwarded: string[] = [];
    for (const [name, value] of requestHeaders) {
      const lower = name.toLowerCase();
      // Identity, so the recording holds readable bodies (the answer is the same resource).
      if (HOP_BY_HOP.has(lower) || lower === 'accept-encoding') continue;
      forwarded.push(name, value);
    }
    forwarded.push('Host', target.host, 'Accept-Encoding', 'identity');
    // The recording holds the request as the target got it (its Host), so a tool replaying the HAR reaches it.
    const forwardedHeaders = pairs(forwarded);
    const url = `${target.origin}${prefix}${req.url ?? '/'}`;
    const requestTap = new BodyTap(limit);
    const answerTap = new BodyTap(limit);
    let status = 0;
    let statusText = '';
    let responseHeaders: Array<[string, string]> = [];
    let comment: string | undefined;
    let timeline: EventTimeline | null = null;
    let settle!: () => void;
    const exchange = { stop: () => {}, done: new Promise<void>((r) => (settle = r)) };
    underWay.add(exchange);
    let finished = false;
    const finish = (note?: string) => {
      if (finished) return;
      finished = true;
      comment ??= note;
      const path = new URL(url).pathname.slice(prefix.length) || '/';
      writer.append(
        harEntry(
          {
            startedAt,
            durationMs: Date.now() - startedAt,
            method: req.method ?? 'GET',
            url,
            requestHeaders: forwardedHeaders,
            requestBody: requestTap.size > 0 ? requestTap.seen() : null,
            status,
            statusText,
            responseHeaders,
            responseBody: status === 0 ? null : answerTap.seen(),
            operationId: matchOperation(req.method ?? 'GET', path)?.op.id ?? null,
            ...(comment !== undefined ? { comment } : {}),
            ...eventsOf(timeline),
          },
          [...secrets],
        ),
      );
      underWay.delete(exchange);
      settle();
    };
    const upstream = client.request(url, { method: req.method, headers: forwarded });
    exchange.stop = () => {
      comment ??= 'the recording stopped before the answer ended';
      upstream.destroy();
      res.destroy();
    };
    req.on('data', (chunk: Buffer) => requestTap.add(chunk));
    req.pipe(upstream);
    upstream.on('response', (answer) => {
      status = answer.statusCode ?? 0;
      statusText = answer.statusMessage ?? '';
      responseHeaders = pairs(answer.rawHeaders);
      const back: string[] = [];
      for (const [name, value] of responseHeaders) if (!HOP_BY_HOP.has(name.toLowerCase())) back.push(name, value);
      res.writeHead(status, statusText, back);
      // Each chunk goes out as it comes (an event stream stays a stream); pipe keeps the pace of the slower side.
      // A stream's events are kept with the time each came, for a stub that replays them at the same pace.
      if (/^text\/event-stream\b/i.test(answer.headers['content-type'] ?? '')) timeline = new EventTimeline(limit);
      answer.on('data', (chunk: Buffer) => {
        answerTap.add(chunk);
        timeline?.add(chunk);
      });
      answer.pipe(res);
      answer.on('end', () => finish());
      answer.on('aborted', () => finish('the target ended the answer before its end'));
      answer.on('error', () => finish('the target ended the answer before its end'));
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (!res.headersSent) {
        const body = JSON.stringify({ error: { code: 'upstream_error', message: `oz-mock record: the target ${target.origin} could not be reached (${err.code ?? err.message}).` } });
        res.writeHead(502, { 'content-type': 'application/json', 'x-error-code': 'upstream_error', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        finish(`the target could not be reached: ${err.code ?? err.message}`);
      } else {
        res.destroy();
        finish(`the target's answer broke off: ${err.code ?? err.message}`);
      }
    });
    // The caller left: stop asking the target, record what came.
    res.on('close', () => {
      if (!res.writableFinished) {
        upstream.destroy();
        finish('the caller left before the answer ended');
      }
    });
  };

  const server = http.createServer(serve);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    harPath,
    stubsPath,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      const pending = [...underWay];
      for (const exchange of pending) exchange.stop();
      await Promise.all(pending.map((e) => e.done));
      for (const socket of sockets) socket.destroy();
      await closed;
      writer.close();
      const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har;
      const { stubs, leftOut } = stubsFromHar(har);
      writeFileSync(stubsPath, `${redactText(JSON.stringify(stubs, null, 2), [...secrets])}\n`);
      return { exchanges: har.log.entries.length, stubs: stubs.length, leftOut };
    },
  };
}
