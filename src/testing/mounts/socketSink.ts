import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SseSink } from '../wire/sseSink.js';
import type { SseStream } from '../wire/sseStream.js';

/**
 * An event stream written straight to Node's response (the HTTP mount): no web stream, no `Response`. A write
 * that answers `false` (the socket's buffer is past its high-water mark) holds the stream until the response's
 * `drain`; a connection closed before the end stops the stream (its ping timer too); a cut ends the
 * connection after what was written, without the body's end.
 */
class SocketSink implements SseSink {
  readonly #incoming: IncomingMessage;
  readonly #outgoing: ServerResponse;

  constructor(incoming: IncomingMessage, outgoing: ServerResponse) {
    this.#incoming = incoming;
    this.#outgoing = outgoing;
  }

  write(text: string): boolean {
    return this.#outgoing.write(text);
  }

  end(cut: boolean): void {
    if (!cut) {
      this.#outgoing.end();
      return;
    }
    // The head and what was written leave first; then the socket ends (`closeWhenBodyPending` may make it a
    // lingering close).
    this.#incoming.socket.destroySoon();
  }
}

/** Writes an event stream's head, then its events as the stream flushes them, to the socket. */
export function writeStream(stream: SseStream, status: number, headers: Record<string, string>, incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (outgoing.destroyed || incoming.socket.destroyed) {
    stream.abort();
    return;
  }
  outgoing.writeHead(status, headers);
  outgoing.on('drain', () => stream.drain());
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) stream.abort();
  });
  stream.attach(new SocketSink(incoming, outgoing));
}
