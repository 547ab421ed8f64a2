import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/** What one read of an event stream gives: an event, the end of the body, or the idle timeout. */
export type SseRead = { kind: 'event'; message: EventSourceMessage } | { kind: 'end' } | { kind: 'idle' };

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads server-sent events off a body with eventsource-parser, one at a time, with an idle timeout: when a read
 * of the body waits `idleTimeoutMs` without a byte, the body is cancelled and the read answers `idle`.
 *
 * Only the time spent waiting on the body counts, not the time the caller spends between two reads. Comments
 * (`: ping`) are bytes like any other, so they keep a stream alive; the parser drops them. Decoding is UTF-8
 * with a `TextDecoder`, which strips a leading BOM even when it is split across chunks (the parser only strips
 * one that arrives whole in the first chunk) and joins characters split across chunks.
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  readonly #idleTimeoutMs: number;
  // Parsed events not yet handed out (a chunk can hold many): `#queue[#head]` is the next.
  #queue: EventSourceMessage[] = [];
  #head = 0;
  #ended = false;
  #idle = false;
  #cancelled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // When the pending body read started; undefined while no read waits.
  #waitingSince: number | undefined;

  constructor(body: ReadableStream<Uint8Array>, idleTimeoutMs: number) {
    this.#reader = body.getReader();
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#parser = createParser({ onEvent: (message) => void this.#queue.push(message) });
  }

  /**
   * The next event already parsed, without waiting (undefined when none is queued): a chunk holds many events,
   * and handing them out without a promise each is most of a fast stream's cost.
   */
  take(): EventSourceMessage | undefined {
    if (this.#head >= this.#queue.length) return undefined;
    const message = this.#queue[this.#head++]!;
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    return message;
  }

  /** The next event, `end` when the body ended (an unfinished last event is dropped), or `idle`. */
  async next(): Promise<SseRead> {
    for (;;) {
      const message = this.take();
      if (message) return { kind: 'event', message };
      if (this.#idle) return { kind: 'idle' };
      if (this.#ended || this.#cancelled) return { kind: 'end' };
      const { done, value } = await this.#read();
      if (this.#idle) return { kind: 'idle' };
      if (done) {
        this.#ended = true;
        this.#stopTimer();
        this.#parser.feed(this.#decoder.decode());
      } else {
        this.#parser.feed(this.#decoder.decode(value, { stream: true }));
      }
    }
  }

  /** Cancels the body (closing its connection); later reads answer `end`. Safe to call more than once. */
  async cancel(reason?: unknown): Promise<void> {
    this.#stopTimer();
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#queue = [];
    this.#head = 0;
    await this.#reader.cancel(reason).catch(() => undefined);
  }

  async #read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    this.#waitingSince = Date.now();
    this.#armTimer(this.#idleTimeoutMs);
    try {
      return await this.#reader.read();
    } catch (error) {
      this.#stopTimer();
      throw error;
    } finally {
      this.#waitingSince = undefined;
    }
  }

  // One timer for the whole stream, re-armed lazily: a fast stream creates no timer per chunk.
  #armTimer(ms: number): void {
    if (this.#timer !== undefined || !Number.isFinite(this.#idleTimeoutMs)) return;
    this.#timer = setTimeout(() => this.#onTimer(), Math.min(ms, MAX_TIMER_MS));
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#waitingSince === undefined || this.#cancelled || this.#ended) return;
    const waited = Date.now() - this.#waitingSince;
    if (waited < this.#idleTimeoutMs) return this.#armTimer(this.#idleTimeoutMs - waited);
    this.#idle = true;
    void this.cancel();
  }

  #stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
