import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { Har } from './har.js';
import { HarFileWriter } from './harFile.js';
import { recordExchange, type Recording } from './recordedExchange.js';
import { stubsFromHar, type LeftOutEntry } from './recordedStubs.js';
import { redactText } from './redaction.js';

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

/** Starts a recording proxy in front of `options.target`. */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`--target must be an http or https URL, got ${options.target}`);
  mkdirSync(options.outDir, { recursive: true });
  const harPath = join(options.outDir, 'recording.har');
  const stubsPath = join(options.outDir, 'stubs.json');
  const recording: Recording = {
    target,
    prefix: target.pathname.replace(/\/+$/, ''),
    limit: options.maxRecordedBytes ?? RECORDED_BODY_BYTES,
    writer: new HarFileWriter(harPath),
    secrets: new Set(),
    underWay: new Set(),
    client: target.protocol === 'https:' ? https : http,
  };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => recordExchange(recording, req, res));
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
  return { url: `http://${host}:${address.port}`, harPath, stubsPath, close: () => stopRecording(recording, server, sockets, { harPath, stubsPath }) };
}

/** Stops listening, ends the exchanges under way (recorded as cut), writes `stubs.json` from the HAR. */
async function stopRecording(
  recording: Recording,
  server: http.Server,
  sockets: ReadonlySet<Socket>,
  { harPath, stubsPath }: { harPath: string; stubsPath: string },
): Promise<RecordingSummary> {
  const closed = new Promise<void>((r) => server.close(() => r()));
  const pending = [...recording.underWay];
  for (const exchange of pending) exchange.stop();
  await Promise.all(pending.map((e) => e.done));
  for (const socket of sockets) socket.destroy();
  await closed;
  recording.writer.close();
  const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har;
  const { stubs, leftOut } = stubsFromHar(har);
  writeFileSync(stubsPath, `${redactText(JSON.stringify(stubs, null, 2), [...recording.secrets])}\n`);
  return { exchanges: har.log.entries.length, stubs: stubs.length, leftOut };
}
