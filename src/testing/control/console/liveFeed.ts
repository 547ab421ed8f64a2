import { SseParser } from '../../../core/streams/sseParser.js';
import type { ControlApi } from './controlApi.js';

/** What the feed tells the page. */
export interface FeedListener {
  /** The feed listens (first connection or a reconnection): the page reloads the journal to miss nothing. */
  ready(): void;
  /** One journal entry, as `GET /_oz/journal` lists it. */
  entry(entry: unknown): void;
  /** The feed is down (it reconnects by itself). */
  down(reason: string): void;
}

/**
 * Reads `GET /_oz/events` with `fetch` (an `EventSource` cannot send the admin token's header) until stopped;
 * reconnects after an end, an overflow or an error, waiting longer each time (at most 5 s).
 */
export function followFeed(api: ControlApi, listener: FeedListener): () => void {
  const controller = new AbortController();
  let delay = 250;
  const run = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(api.scoped('/events'), { headers: api.headers(), signal: controller.signal, cache: 'no-store', credentials: 'omit' });
        if (!response.ok || response.body === null) throw new Error(`The live feed answered ${response.status}.`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        // The client's own reader of server-sent events: the one the project has.
        const parser = new SseParser({
          onEvent: (event, data) => {
            if (event === 'ready') {
              delay = 250;
              listener.ready();
            } else if (event === 'entry') listener.entry(JSON.parse(data));
          },
        });
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
        listener.down('The live feed ended: reconnecting.');
      } catch (error) {
        if (controller.signal.aborted) return;
        listener.down(`The live feed is down (${(error as Error).message}): reconnecting.`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5000);
    }
  };
  void run();
  return () => controller.abort();
}
