import type { JournalEntry } from '../harness/journal.js';
import type { ServerEvents } from '../harness/serverEvents.js';
import type { ServerClock } from '../time/clock.js';
import type { StateLifetime } from '../time/stateLifetime.js';
import { stateReset } from '../contract/errors.js';
import type { Reply } from '../wire/requestOutcome.js';
import type { Connection } from '../wire/connection.js';
import { SSE_BUFFER_LIMIT } from '../wire/sseSink.js';
import { SseStream } from '../wire/sseStream.js';
import { journalEntryView } from './journalView.js';

/** What the live feed reads: a world's answers, its clock and the lifetime of its state (a reset ends the feed). */
export interface EventFeedNeeds {
  readonly events: ServerEvents;
  readonly clock: ServerClock;
  readonly lifetime: Pick<StateLifetime, 'onEnd'>;
}

/**
 * How much of the feed may wait for a slow reader (UTF-16 code units): past it the feed sends `overflow` and ends,
 * so a stalled reader costs the server at most this (and the reader reloads the journal and reconnects).
 */
export const FEED_BUFFER_LIMIT = SSE_BUFFER_LIMIT;

/** An event stream that says when it ends (the client gone, or the feed's own end), so its listener goes with it. */
class FeedStream extends SseStream {
  // Set after construction: the constructor may end a stream whose request was aborted already.
  ended: (() => void) | undefined;

  override abort(): void {
    super.abort();
    this.ended?.();
  }

  override close(): void {
    super.close();
    this.ended?.();
  }
}

/**
 * `GET /_oz/events`: the journal's entries as server-sent events, each `event: entry` with the entry's control-plane
 * view as its data, sent once the request has its answer's status. It starts with `event: ready` (the feed listens
 * from then on: a reader fetches the journal after it to miss nothing). A reader that falls
 * {@link FEED_BUFFER_LIMIT} behind gets `event: overflow` and the end. A reset of the world (`reset()`, `restore()`,
 * `importState()`, `close()`) ends it as it ends the API's streams: one `event: error` whose data is the error
 * envelope of code `reset`, then the end; the journal it followed is gone, so the reader reconnects and reads anew.
 */
export function eventFeed(parts: EventFeedNeeds, request: Request, conn: Connection): Reply {
  // Over HTTP the socket's sink sees a client gone; in process the request's signal does.
  const stream = new FeedStream(conn.mount === 'http' ? null : request.signal, {
    clock: parts.clock,
    pingMs: 0,
    lifetime: { onEnd: (listener) => parts.lifetime.onEnd(listener), resetData: () => JSON.stringify({ error: stateReset().toObject() }) },
  });
  const stop = parts.events.on('answered', (entry: JournalEntry) => {
    if (stream.buffered >= FEED_BUFFER_LIMIT) {
      stream.send('overflow', JSON.stringify({ message: 'The reader fell behind: reload the journal and reconnect.' }));
      stream.close();
      return;
    }
    stream.send('entry', JSON.stringify(journalEntryView(entry)));
  });
  stream.ended = () => stop();
  if (!stream.isOpen) stop();
  else stream.send('ready', '{}');
  return {
    kind: 'stream',
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    stream,
  };
}
