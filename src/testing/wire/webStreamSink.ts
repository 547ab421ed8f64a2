import { SSE_BUFFER_LIMIT, type SseSink, type SseSinkOwner } from './sseSink.js';

const encoder = new TextEncoder();

/**
 * An event stream as a web `ReadableStream` (in process and through msw, whose callers read a `Response` body).
 * It queues up to {@link SSE_BUFFER_LIMIT} bytes its reader has not read, then says it is full; a read (the
 * stream's `pull`) drains it.
 */
export class WebStreamSink implements SseSink {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;

  constructor(owner: SseSinkOwner) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => owner.drain(),
        cancel: () => owner.cancel(),
      },
      { highWaterMark: SSE_BUFFER_LIMIT, size: (chunk) => chunk.byteLength },
    );
  }

  write(text: string): boolean {
    const controller = this.#controller;
    if (text !== '') controller.enqueue(encoder.encode(text));
    return (controller.desiredSize ?? 0) > 0;
  }

  end(): void {
    try {
      this.#controller.close();
    } catch {
      // already closed by a cancel
    }
  }
}
