import { SseParser } from './sseParser.js';

/** One server-sent event: its type (`message` when it had none) and its data. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * What one read of an event stream gives: an event, the end of the body, the idle timeout, an event past the
 * size bound (`tooLarge`), or the stream's overall deadline.
 */
export type SseRead = { kind: 'event'; message: SseEvent } | { kind: 'end' } | { kind: 'idle' } | { kind: 'tooLarge' } | { kind: 'deadline' };

/** The limits of one stream's reads. */
export interface SseLimits {
  /** Milliseconds of waiting on the body without a complete event before `idle` (`Infinity`: never). */
  readonly idleTimeoutMs: number;
  /** Bytes one event (or comment) may take before it is complete; past them the read answers `tooLarge`. */
  readonly maxEventBytes: number;
  /** When (`Date.now()` time) the stream must have ended; past it the read answers `deadline`. */
  readonly deadlineAt?: number | undefined;
}

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads server-sent events off a body with {@link SseParser}, one at a time, within three limits:
 *
 * - Idle: progress is a complete event. When the reads of the body have waited `idleTimeoutMs` in all since the
 *   last event (comments such as `: ping` and parts of an unfinished event are not progress: they keep the
 *   connection alive, not the stream), the body is cancelled and the read answers `idle`. Only the time spent
 *   waiting on the body counts, not the time the caller spends between two reads.
 * - Size: the bytes received since the last complete event or comment may not pass `maxEventBytes` (checked per
 *   chunk: memory stays within the bound plus one chunk), so a line that never ends cannot grow the client.
 * - Deadline: at `deadlineAt` the body is cancelled, whatever arrives.
 *
 * Decoding is UTF-8 with a `TextDecoder`, which strips a leading BOM even when it is split across chunks and joins
 * characters split across chunks.
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  readonly #parser: SseParser;
  readonly #limits: SseLimits;
  // Parsed events not yet handed out (a chunk can hold many): `#queue[#head]` is the next.
  #queue: SseEvent[] = [];
  #head = 0;
  #ended = false;
  #stop: 'idle' | 'tooLarge' | 'deadline' | undefined;
  #cancelled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  // When the pending body read started; undefined while no read waits.
  #waitingSince: number | undefined;
  // Milliseconds already waited on the body since the last event.
  #quietMs = 0;
  // Bytes received since the last complete event or comment.
  #pendingBytes = 0;
  // Whether the parser completed an event (`#event`) or any event or comment (`#dispatched`) in the last feed.
  #event = false;
  #dispatched = false;

  constructor(body: ReadableStream<Uint8Array>, limits: SseLimits) {
    this.#reader = body.getReader();
    this.#limits = limits;
    this.#parser = new SseParser({
      onEvent: (event, data) => {
        // An oversized event that arrived whole in one chunk (its data counted in UTF-16 units, at most its bytes).
        if (data.length > limits.maxEventBytes) this.#halt('tooLarge');
        if (this.#stop) return;
        this.#queue.push({ event, data });
        this.#event = true;
        this.#dispatched = true;
      },
      onComment: () => void (this.#dispatched = true),
    });
    if (limits.deadlineAt !== undefined && Number.isFinite(limits.deadlineAt)) this.#armDeadline();
    // A body that ends or fails while no read waits (the caller's abort errors it at once) stops the timers then.
    const stop = (): void => this.#stopTimers();
    this.#reader.closed.then(stop, stop);
  }

  /**
   * The next event already parsed, without waiting (undefined when none is queued): a chunk holds many events,
   * and handing them out without a promise each is most of a fast stream's cost.
   */
  take(): SseEvent | undefined {
    if (this.#head >= this.#queue.length || this.#stop === 'deadline') return undefined;
    const message = this.#queue[this.#head++]!;
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return message;
  }

  /** The next event, `end` when the body ended (an unfinished last event is dropped), or why it was stopped. */
  async next(): Promise<SseRead> {
    for (;;) {
      // Events complete before an oversized one are still handed out; nothing is after the idle time or deadline.
      if (this.#stop !== undefined && this.#stop !== 'tooLarge') return { kind: this.#stop };
      const message = this.take();
      if (message) return { kind: 'event', message };
      if (this.#stop) return { kind: this.#stop };
      if (this.#ended || this.#cancelled) return { kind: 'end' };
      const started = Date.now();
      const { done, value } = await this.#read();
      if (this.#stop) continue;
      if (done) {
        this.#ended = true;
        this.#stopTimers();
        this.#parser.feed(this.#decoder.decode());
        continue;
      }
      this.#feed(value, Date.now() - started);
    }
  }

  /** Cancels the body (closing its connection); later reads answer `end`. Safe to call more than once. */
  async cancel(reason?: unknown): Promise<void> {
    this.#stopTimers();
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#queue = [];
    this.#head = 0;
    await this.#reader.cancel(reason).catch(() => undefined);
  }

  #feed(value: Uint8Array, waitedMs: number): void {
    const pending = this.#pendingBytes + value.byteLength;
    // A chunk without a line break completes nothing: past the bound, it is not even handed to the parser.
    if (pending > this.#limits.maxEventBytes && !value.includes(10) && !value.includes(13)) return this.#halt('tooLarge');
    this.#event = false;
    this.#dispatched = false;
    const text = this.#decoder.decode(value, { stream: true });
    this.#parser.feed(text);
    this.#quietMs = this.#event ? 0 : this.#quietMs + waitedMs;
    // After an event or comment, what is left is at most the unfinished line after it.
    this.#pendingBytes = this.#dispatched ? this.#parser.pendingLength : pending;
    if (this.#pendingBytes > this.#limits.maxEventBytes) this.#halt('tooLarge');
  }

  /** Stops the stream for `why`: the body is cancelled (the events already parsed stay for an oversized one). */
  #halt(why: 'idle' | 'tooLarge' | 'deadline'): void {
    this.#stop ??= why;
    this.#stopTimers();
    if (this.#cancelled) return;
    this.#cancelled = true;
    void this.#reader.cancel().catch(() => undefined);
  }

  async #read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    this.#waitingSince = Date.now();
    this.#armTimer(this.#limits.idleTimeoutMs - this.#quietMs);
    try {
      return await this.#reader.read();
    } catch (error) {
      this.#stopTimers();
      throw error;
    } finally {
      this.#waitingSince = undefined;
    }
  }

  // One timer for the whole stream, re-armed lazily: a fast stream creates no timer per chunk.
  #armTimer(ms: number): void {
    if (this.#timer !== undefined || !Number.isFinite(this.#limits.idleTimeoutMs)) return;
    this.#timer = setTimeout(() => this.#onTimer(), Math.min(Math.max(ms, 0), MAX_TIMER_MS));
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#waitingSince === undefined || this.#cancelled || this.#ended) return;
    const quiet = this.#quietMs + Date.now() - this.#waitingSince;
    if (quiet < this.#limits.idleTimeoutMs) return this.#armTimer(this.#limits.idleTimeoutMs - quiet);
    this.#halt('idle');
  }

  #armDeadline(): void {
    const left = this.#limits.deadlineAt! - Date.now();
    if (left <= 0) return this.#halt('deadline');
    this.#deadlineTimer = setTimeout(() => this.#armDeadline(), Math.min(left, MAX_TIMER_MS));
    // The deadline alone keeps no process alive: an open body does, while it is read.
    (this.#deadlineTimer as { unref?: () => void }).unref?.();
  }

  #stopTimers(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }
}
