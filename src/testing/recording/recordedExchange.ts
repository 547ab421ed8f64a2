import type http from 'node:http';
import type https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { EventTimeline, type RecordedEvent } from './eventTimeline.js';
import { harEntry, type SeenBody } from './har.js';
import type { HarFileWriter } from './harFile.js';
import { matchOperation } from './operationMatch.js';
import { credentialValues } from './redaction.js';

/** What every exchange of one recording shares: where it goes, what it keeps, where it writes. */
export interface Recording {
  readonly target: URL;
  /** The target's path, kept in front of every request's path. */
  readonly prefix: string;
  /** How much of each body is kept. */
  readonly limit: number;
  readonly writer: HarFileWriter;
  /** Every key forwarded so far: scrubbed from everything written, wherever it appears. */
  readonly secrets: Set<string>;
  /** The exchanges under way: stopped (recorded as cut) when the recording stops. */
  readonly underWay: Set<{ stop(): void; done: Promise<void> }>;
  readonly client: typeof http | typeof https;
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

/** The request's headers as the target gets them: its own `Host`, identity encoding, no connection headers. */
function forwardedHeaders(requestHeaders: ReadonlyArray<[string, string]>, target: URL): string[] {
  const forwarded: string[] = [];
  for (const [name, value] of requestHeaders) {
    const lower = name.toLowerCase();
    // Identity, so the recording holds readable bodies (the answer is the same resource).
    if (HOP_BY_HOP.has(lower) || lower === 'accept-encoding') continue;
    forwarded.push(name, value);
  }
  forwarded.push('Host', target.host, 'Accept-Encoding', 'identity');
  return forwarded;
}

/**
 * One exchange through the recording proxy: the request forwarded to the target, its answer streamed back as it
 * comes, and, once it ends (or breaks off), one HAR entry written with the request headers as forwarded and a
 * bounded part of each body.
 */
class Exchange {
  readonly #startedAt = Date.now();
  readonly #requestTap: BodyTap;
  readonly #answerTap: BodyTap;
  readonly #forwarded: string[];
  readonly url: string;
  #status = 0;
  #statusText = '';
  #responseHeaders: Array<[string, string]> = [];
  #comment: string | undefined;
  #timeline: EventTimeline | null = null;
  #finished = false;
  #settle!: () => void;
  readonly handle = { stop: () => {}, done: new Promise<void>((r) => (this.#settle = r)) };

  constructor(
    readonly recording: Recording,
    readonly req: IncomingMessage,
  ) {
    const requestHeaders = pairs(req.rawHeaders);
    for (const secret of credentialValues(requestHeaders)) recording.secrets.add(secret);
    this.#forwarded = forwardedHeaders(requestHeaders, recording.target);
    this.url = `${recording.target.origin}${recording.prefix}${req.url ?? '/'}`;
    this.#requestTap = new BodyTap(recording.limit);
    this.#answerTap = new BodyTap(recording.limit);
  }

  /** Sends the request on; the returned request's answer is {@link Exchange.relay}ed. */
  forward(): ClientRequest {
    const upstream = this.recording.client.request(this.url, { method: this.req.method, headers: this.#forwarded });
    this.req.on('data', (chunk: Buffer) => this.#requestTap.add(chunk));
    this.req.pipe(upstream);
    return upstream;
  }

  /** The target's answer sent back chunk by chunk (an event stream stays a stream), recorded as it passes. */
  relay(answer: IncomingMessage, res: ServerResponse): void {
    this.#status = answer.statusCode ?? 0;
    this.#statusText = answer.statusMessage ?? '';
    this.#responseHeaders = pairs(answer.rawHeaders);
    const back: string[] = [];
    for (const [name, value] of this.#responseHeaders) if (!HOP_BY_HOP.has(name.toLowerCase())) back.push(name, value);
    res.writeHead(this.#status, this.#statusText, back);
    // A stream's events are kept with the time each came, for a stub that replays them at the same pace.
    if (/^text\/event-stream\b/i.test(answer.headers['content-type'] ?? '')) this.#timeline = new EventTimeline(this.recording.limit);
    answer.on('data', (chunk: Buffer) => {
      this.#answerTap.add(chunk);
      this.#timeline?.add(chunk);
    });
    // pipe keeps the pace of the slower side.
    answer.pipe(res);
    answer.on('end', () => this.finish());
    answer.on('aborted', () => this.finish('the target ended the answer before its end'));
    answer.on('error', () => this.finish('the target ended the answer before its end'));
  }

  /** Writes the exchange's HAR entry, once, with `note` as its comment unless one was set. */
  finish(note?: string): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#comment ??= note;
    const method = this.req.method ?? 'GET';
    const path = new URL(this.url).pathname.slice(this.recording.prefix.length) || '/';
    const entry = {
      startedAt: this.#startedAt,
      durationMs: Date.now() - this.#startedAt,
      method,
      url: this.url,
      requestHeaders: pairs(this.#forwarded),
      requestBody: this.#requestTap.size > 0 ? this.#requestTap.seen() : null,
      status: this.#status,
      statusText: this.#statusText,
      responseHeaders: this.#responseHeaders,
      responseBody: this.#status === 0 ? null : this.#answerTap.seen(),
      operationId: matchOperation(method, path)?.op.id ?? null,
      ...(this.#comment !== undefined ? { comment: this.#comment } : {}),
      ...eventsOf(this.#timeline),
    };
    this.recording.writer.append(harEntry(entry, [...this.recording.secrets]));
    this.recording.underWay.delete(this.handle);
    this.#settle();
  }

  /** Marks the exchange cut by the recording's stop. */
  stopped(): void {
    this.#comment ??= 'the recording stopped before the answer ended';
  }
}

/** The target could not be reached (a 502 `upstream_error`), or its answer broke off after it began. */
function upstreamFailed(exchange: Exchange, res: ServerResponse, err: NodeJS.ErrnoException): void {
  const reason = err.code ?? err.message;
  if (res.headersSent) {
    res.destroy();
    exchange.finish(`the target's answer broke off: ${reason}`);
    return;
  }
  const body = JSON.stringify({
    error: { code: 'upstream_error', message: `oz-mock record: the target ${exchange.recording.target.origin} could not be reached (${reason}).` },
  });
  res.writeHead(502, { 'content-type': 'application/json', 'x-error-code': 'upstream_error', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  exchange.finish(`the target could not be reached: ${reason}`);
}

/** Serves one request of the recording proxy: forwards it, relays the answer, records the exchange. */
export function recordExchange(recording: Recording, req: IncomingMessage, res: ServerResponse): void {
  const exchange = new Exchange(recording, req);
  recording.underWay.add(exchange.handle);
  const upstream = exchange.forward();
  exchange.handle.stop = () => {
    exchange.stopped();
    upstream.destroy();
    res.destroy();
  };
  upstream.on('response', (answer) => exchange.relay(answer, res));
  upstream.on('error', (err: NodeJS.ErrnoException) => upstreamFailed(exchange, res, err));
  // The caller left: stop asking the target, record what came.
  res.on('close', () => {
    if (!res.writableFinished) {
      upstream.destroy();
      exchange.finish('the caller left before the answer ended');
    }
  });
}
