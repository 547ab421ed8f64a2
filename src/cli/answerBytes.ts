import type { Middleware } from '../index.js';
import { EventCopy } from './eventCopy.js';

/** The bytes of one answer as they came over the wire, with its media type. */
export interface WireBytes {
  readonly bytes: Uint8Array;
  /** The answer's `Content-Type` (`application/json`, `text/yaml; charset=utf-8`), or null. */
  readonly contentType: string | null;
}

/**
 * Keeps the wire's bytes of the answers a client reads, so that `oz` can print an answer exactly as it came (the
 * client hands on what it parsed: big numbers, `1e400` and the spelling of a YAML document are lost there). Its
 * middleware passes every 2xx answer's body through a copy as the client reads it: the client's own bounds still
 * hold, and nothing is read that the client does not read. Event streams are left alone, unless `events` asks
 * for their events as they came ({@link AnswerBytes.eventsOf}).
 */
export class AnswerBytes {
  readonly #kept = new WeakMap<Response, { chunks: Uint8Array[]; size: number; whole: boolean; contentType: string | null }>();
  #events: EventCopy | undefined;
  readonly #keepEvents: boolean;

  /** `events`: keep the events of an event stream as they came (they queue until taken: only for a reader of them). */
  constructor(options: { readonly events?: boolean } = {}) {
    this.#keepEvents = options.events === true;
  }

  /** The middleware to give the client. */
  readonly middleware: Middleware = async (request, next) => {
    const response = await next(request);
    const contentType = response.headers.get('content-type');
    if (!response.ok || response.body === null) return response;
    if (contentType?.toLowerCase().startsWith('text/event-stream')) return this.#keepEvents ? this.#copyEvents(response) : response;
    const kept = { chunks: [] as Uint8Array[], size: 0, whole: false, contentType };
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        kept.chunks.push(chunk);
        kept.size += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        kept.whole = true;
      },
    });
    const copied = new Response(response.body.pipeThrough(copy), { status: response.status, statusText: response.statusText, headers: response.headers });
    this.#kept.set(copied, kept);
    return copied;
  };

  /**
   * The events as they came of the last event stream the client was answered (with `events`), else undefined. Not
   * by its `Response`: the client hands its stream a body of its own (bounded by the call's signal). An `oz` run
   * makes one streaming call, and a stream is never retried once answered 2xx, so the last one is the one read.
   */
  lastEvents(): EventCopy | undefined {
    return this.#events;
  }

  #copyEvents(response: Response): Response {
    const events = new EventCopy();
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        events.feed(chunk);
        controller.enqueue(chunk);
      },
    });
    this.#events = events;
    return new Response(response.body!.pipeThrough(copy), { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** The bytes of `response` as they came, when the client read all of them (else undefined). */
  of(response: Response): WireBytes | undefined {
    const kept = this.#kept.get(response);
    if (kept === undefined || !kept.whole) return undefined;
    const bytes = new Uint8Array(kept.size);
    let at = 0;
    for (const chunk of kept.chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return { bytes, contentType: kept.contentType };
  }
}
