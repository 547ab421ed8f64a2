import { SseParser } from '../../core/streams/sseParser.js';

/** One event of a recorded stream: its name (`message` when it had none), its data, and the wait before it. */
export interface RecordedEvent {
  readonly event: string;
  readonly data: string;
  /** Milliseconds since the event before it (the first: since the answer's head). */
  readonly delayMs: number;
}

/**
 * The events of a streamed answer as they pass through the recorder, each with the time it came: the chunks are
 * read with the client's event-stream parser (the project's one reader), so a recording sees what the SDK sees.
 * It keeps the events of the first `limit` bytes, as the recording keeps the body.
 */
export class EventTimeline {
  readonly #events: RecordedEvent[] = [];
  readonly #decoder = new TextDecoder();
  readonly #parser: SseParser;
  readonly #limit: number;
  #seen = 0;
  #lastAt: number;
  #now: number;

  constructor(limit: number, startedAt = Date.now()) {
    this.#limit = limit;
    this.#lastAt = startedAt;
    this.#now = startedAt;
    this.#parser = new SseParser({
      onEvent: (event, data) => {
        this.#events.push({ event, data, delayMs: Math.max(0, this.#now - this.#lastAt) });
        this.#lastAt = this.#now;
      },
    });
  }

  /** A chunk of the answer, as it came (`at`: when, ms since the epoch). */
  add(chunk: Uint8Array, at = Date.now()): void {
    if (this.#seen >= this.#limit) return;
    this.#seen += chunk.length;
    this.#now = at;
    this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The events read so far, in order; `complete` is false when the body outgrew the limit. */
  events(): { readonly events: readonly RecordedEvent[]; readonly complete: boolean } {
    return { events: this.#events, complete: this.#seen < this.#limit };
  }
}
