import { SseParser } from '../core/streams/sseParser.js';
import type { SseEvent } from '../core/streams/sseReader.js';

/**
 * The events of one event stream as they came, read off a copy of its bytes with the client's own parser (the
 * same lines, the same `data` joined with `\n`), so that `oz --stream --format json` prints each event's data as
 * the service sent it rather than written again from what the client parsed. The client hands out a subsequence
 * of the events (it skips `[DONE]` and kinds it does not know): {@link EventCopy.dataOf} drops the ones it skipped.
 */
export class EventCopy {
  #events: SseEvent[] = [];
  readonly #decoder = new TextDecoder();
  readonly #parser = new SseParser({ onEvent: (event, data) => void this.#events.push({ event, data }) });

  /** Reads a chunk of the stream's bytes (before the client reads it). */
  feed(chunk: Uint8Array): void {
    this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /**
   * The data, as sent, of the event the client handed out as `item`: on a chat stream the next event that is not
   * `[DONE]`, on an execute stream the next event of the item's name. Undefined when no such event came.
   */
  dataOf(item: unknown, chat: boolean): string | undefined {
    const name = chat ? undefined : (item as { event?: unknown }).event;
    for (;;) {
      const next = this.#events.shift();
      if (next === undefined) return undefined;
      if (chat ? next.data.trim() !== '[DONE]' : next.event === name) return next.data;
    }
  }
}
