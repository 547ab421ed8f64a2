import type { ServerClock, TimerHandle } from '../time/clock.js';
import { SSE_BUFFER_LIMIT, type SseSink, type SseSinkOwner } from './sseSink.js';
import { WebStreamSink } from './webStreamSink.js';

/** Options of an event stream. */
export interface SseStreamOptions {
  readonly clock: ServerClock;
  /** Cut the connection after this many events (fault injection). */
  readonly cutAfter?: number;
  /** How the mount cuts the connection. */
  readonly onCut?: () => void;
  /** A `: ping` comment after this much quiet (ms of the clock); 0 turns pings off. */
  readonly pingMs: number;
  /**
   * The lifetime of the state the stream reports on (`StateLifetime.onEnd`): when it ends while the stream is
   * open (a reset, restore or import), the stream sends one `error` event with `resetData()` and ends at once.
   */
  readonly lifetime?: { readonly onEnd: (listener: () => void) => () => void; readonly resetData: () => string };
}

const PING = ': ping\n\n';

/** The sink of a stream whose reader went away while observers still read its copy. */
const DETACHED: SseSink = { write: () => true, end: () => undefined };

/**
 * A server-sent event stream the run writes to. It stops on the request's abort or the client's cancel,
 * while the run it reports on goes on (the execution record keeps the outcome).
 *
 * Its bytes go to one sink the mount attaches ({@link SseStream.attach}: the socket over HTTP, a web stream in
 * process, see `sseSink.ts`), and a copy to each observer's {@link SseStream.tap}. The events of one turn of the
 * event loop leave in one write (a flush in the check phase, `setImmediate`); until a sink is attached, and while
 * it is full, they wait here, at most {@link SSE_BUFFER_LIMIT}: past it {@link SseStream.ready} tells the
 * producer to wait (the run pauses for a slow reader rather than the server's memory growing with the stream).
 * The keep-alive ping is one timer on the server clock: when it fires it pings if the stream was quiet for
 * `pingMs`, else re-arms for the rest of the quiet time (an event does not touch it). Given the state's lifetime,
 * the stream ends with an `error` event when that ends (a reset), whatever the run it reports on does.
 */
export class SseStream implements SseSinkOwner {
  /** Whether events are still taken (not closed, cut or cancelled). */
  #open = true;
  /** Whether the sink was ended (or the stream cancelled): nothing more is written anywhere. */
  #done = false;
  #cut = false;
  #events = 0;
  /** Events not written to the sink yet. */
  #pending = '';
  #flushQueued = false;
  #sink: SseSink | null = null;
  /** Whether anything (the head at least) was written to the sink. */
  #started = false;
  /** The sink said it is full: events wait for its drain. */
  #full = false;
  #waiters: Array<() => void> = [];
  #taps: Array<ReadableStreamDefaultController<Uint8Array>> = [];
  #web: WebStreamSink | null = null;
  #ping: TimerHandle | null = null;
  /** Stops listening to the state's lifetime (set while the stream listens). */
  #forgetLifetime: (() => void) | null = null;
  #lastWriteAt = 0;
  readonly #options: SseStreamOptions;
  readonly #flushTask = (): void => {
    this.#flushQueued = false;
    this.#flush();
  };
  readonly #pingTask = (): void => this.#onPingTimer();

  /** `signal`: the request's abort (in process and msw); over HTTP the socket's sink reports a client gone. */
  constructor(signal: AbortSignal | null, options: SseStreamOptions) {
    this.#options = options;
    if (signal?.aborted) this.abort();
    else signal?.addEventListener('abort', () => this.abort(), { once: true });
    if (options.cutAfter === 0) this.#cutNow();
    if (this.#open && options.pingMs > 0) {
      this.#lastWriteAt = options.clock.now();
      this.#armPing(options.pingMs);
    }
    if (this.#open && options.lifetime) this.#listenToLifetime(options.lifetime);
  }

  /** Whether events still reach the client. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** What the stream holds that no sink took yet (UTF-16 code units): at most about {@link SSE_BUFFER_LIMIT}. */
  get buffered(): number {
    return this.#pending.length;
  }

  /** Sends one event: `event: <name>` (none for data-only events) and its data line. */
  send(event: string | null, data: string): void {
    if (!this.#open) return;
    this.#queue(event === null ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`);
    this.#events++;
    if (this.#options.cutAfter !== undefined && this.#events >= this.#options.cutAfter) this.#cutNow();
  }

  /**
   * `undefined` while the stream takes more; past {@link SSE_BUFFER_LIMIT} of what no sink took, a promise that
   * settles once a flush made room (or the stream ended): the producer awaits it before its next event.
   */
  ready(): Promise<void> | undefined {
    if (!this.#open || this.#pending.length < SSE_BUFFER_LIMIT) return undefined;
    return new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Ends the stream: what is pending still goes out, then the end. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#stopPing();
    this.#stopListening();
    if (this.#sink) this.#finish();
  }

  /**
   * Where the bytes go: the mount attaches one sink (the socket over HTTP; `body` attaches a web stream). The
   * first flush, in the next check phase, sends the head with the events of this turn.
   */
  attach(sink: SseSink): void {
    if (this.#sink !== null) {
      // Its reader went away before (a client gone): the new sink ends at once.
      if (this.#sink !== DETACHED) throw new Error('An event stream has one sink');
      sink.end(false);
      return;
    }
    this.#sink = sink;
    if (!this.#open) this.#finish();
    else this.#queueFlush();
  }

  /** The stream as a web `ReadableStream` (in process, msw): attaches a {@link WebStreamSink}. */
  get body(): ReadableStream<Uint8Array> {
    if (!this.#web) {
      this.#web = new WebStreamSink(this);
      this.attach(this.#web);
    }
    return this.#web.body;
  }

  /**
   * A copy of every byte written to the sink from now on, for an observer (`server.onResponse`): take it before
   * the mount attaches its sink. It queues without bound: an observer reads in this process.
   */
  tap(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (this.#done) controller.close();
        else this.#taps.push(controller);
      },
    });
  }

  /** The sink takes more: what waited goes out now. */
  drain(): void {
    if (!this.#full) return;
    this.#full = false;
    this.#flush();
  }

  /**
   * The sink's reader stopped reading (a body cancelled): nothing more goes to the sink, a waiting producer goes
   * on. Observers' taps still get the whole stream, as the server makes it; without any, the stream stops.
   */
  cancel(): void {
    if (this.#done) return;
    if (this.#taps.length === 0) {
      this.abort();
      return;
    }
    this.#sink = DETACHED;
    this.#full = false;
    if (!this.#open) this.#finish();
    else if (this.#pending !== '') this.#flush();
  }

  /**
   * The connection is gone (the request's abort, the client's socket closed): nothing more is written anywhere,
   * what waited is dropped, the ping timer is freed, a waiting producer goes on.
   */
  abort(): void {
    this.#open = false;
    this.#stopPing();
    this.#stopListening();
    this.#sink ??= DETACHED;
    if (this.#done) return;
    this.#done = true;
    this.#pending = '';
    this.#endTaps();
    this.#release();
  }

  #listenToLifetime(lifetime: NonNullable<SseStreamOptions['lifetime']>): void {
    this.#forgetLifetime = lifetime.onEnd(() => {
      this.#forgetLifetime = null;
      this.send('error', lifetime.resetData());
      this.close();
    });
  }

  #stopListening(): void {
    this.#forgetLifetime?.();
    this.#forgetLifetime = null;
  }

  #queue(text: string): void {
    this.#pending += text;
    if (this.#ping !== null) this.#lastWriteAt = this.#options.clock.now();
    if (!this.#flushQueued && this.#sink !== null && !this.#full) this.#queueFlush();
  }

  #queueFlush(): void {
    this.#flushQueued = true;
    setImmediate(this.#flushTask);
  }

  /** Writes what waits to the sink (one write), unless the sink is full or the stream is done. */
  #flush(): void {
    const sink = this.#sink;
    if (sink === null || this.#full || this.#done || (this.#pending === '' && this.#started)) return;
    const text = this.#pending;
    this.#pending = '';
    this.#started = true;
    this.#copyToTaps(text);
    this.#full = !sink.write(text);
    this.#release();
  }

  /** The end: what waits goes out whatever the sink's fill (it is bounded), then the sink's end. */
  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    const text = this.#pending;
    this.#pending = '';
    if (text !== '' || !this.#started) {
      this.#started = true;
      this.#copyToTaps(text);
      this.#sink!.write(text);
    }
    this.#sink!.end(this.#cut);
    this.#endTaps();
    this.#release();
  }

  #cutNow(): void {
    this.#cut = true;
    this.#options.onCut?.();
    this.close();
  }

  #copyToTaps(text: string): void {
    if (this.#taps.length === 0 || text === '') return;
    const bytes = new TextEncoder().encode(text);
    for (const tap of this.#taps) tap.enqueue(bytes.slice());
  }

  #endTaps(): void {
    for (const tap of this.#taps) {
      try {
        tap.close();
      } catch {
        // cancelled by its reader
      }
    }
    this.#taps = [];
  }

  #release(): void {
    if (this.#waiters.length === 0 || (this.#open && this.#pending.length >= SSE_BUFFER_LIMIT)) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  #armPing(ms: number): void {
    this.#ping = this.#options.clock.timer(ms, this.#pingTask, false);
  }

  /** The one ping timer fired: a ping after `pingMs` of quiet; else it waits the rest of the quiet time. */
  #onPingTimer(): void {
    this.#ping = null;
    if (!this.#open) return;
    const pingMs = this.#options.pingMs;
    const quiet = this.#options.clock.now() - this.#lastWriteAt;
    if (quiet < pingMs) {
      this.#armPing(pingMs - quiet);
      return;
    }
    // Bytes waiting for a slow reader keep the connection busy already: no ping piles up behind them.
    if (this.#pending === '' && !this.#full) this.#queue(PING);
    this.#lastWriteAt = this.#options.clock.now();
    this.#armPing(pingMs);
  }

  #stopPing(): void {
    this.#ping?.cancel();
    this.#ping = null;
  }
}
