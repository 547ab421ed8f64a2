/**
 * Where an event stream's bytes go: a web `ReadableStream` in process and through msw (`webStreamSink.ts`), the
 * socket itself over HTTP (`mounts/socketSink.ts`). The mount chooses (see `SseStream.attach`). A sink takes the
 * text of one flush (every event of one turn of the event loop, joined), says when it is full, and calls the
 * stream back: `SseStream.drain()` once it takes more, `SseStream.cancel()` when its reader went away.
 */
export interface SseSink {
  /**
   * Takes one flush's text. The first write may be empty: it sends the answer's head (a stream held by the clock
   * still answers at once). `false`: the sink is full; the stream holds what comes next until it drains.
   */
  write(text: string): boolean;
  /**
   * The stream ended after everything was written: `cut` (a `cut` fault) ends it without the body's end, as a
   * connection that breaks.
   */
  end(cut: boolean): void;
}

/** What a sink calls back on the stream it serves. */
export interface SseSinkOwner {
  /** The sink takes more again (after a `write` answered `false`). */
  drain(): void;
  /** The sink's reader stopped reading (a cancelled body); observers of the stream still read their copy. */
  cancel(): void;
  /** The connection is gone (the client closed it): the stream stops. */
  abort(): void;
}

/**
 * What an event stream holds, at most, of events no sink has taken yet (UTF-16 code units, plus the one event
 * that crossed it): past it the run that produces the events waits (`SseStream.ready`) until the sink drains.
 * A web-stream sink holds as many bytes before it says it is full. So a reader slower than the run costs the
 * server about twice this (plus the socket's own high-water mark), however long the stream.
 */
export const SSE_BUFFER_LIMIT = 64 * 1024;
