import { EventSourceParserStream } from 'eventsource-parser/stream';
import { OzError } from './errors.js';

/** One server-sent event as the stream hands it out: its name and its parsed `data`. */
export interface ServerSentEvent<Name extends string = string, Data = unknown> {
  event: Name;
  data: Data;
}

/**
 * A live server-sent event stream: an async iterable of typed events. Breaking out of the loop closes the
 * connection.
 */
export class Stream<E> implements AsyncIterable<E> {
  readonly #response: Response;
  readonly #mode: 'events' | 'chat';
  #consumed = false;

  /** @param mode `events`: `{event, data}` items; `chat`: OpenAI chunks until `data: [DONE]`. */
  constructor(response: Response, mode: 'events' | 'chat') {
    this.#response = response;
    this.#mode = mode;
  }

  /** The raw `Response` of the stream (its body is read by iteration). */
  get response(): Response {
    return this.#response;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<E> {
    if (this.#consumed) throw new OzError('A Stream can be iterated only once.');
    this.#consumed = true;
    const body = this.#response.body;
    if (!body) return;
    const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (this.#mode === 'chat') {
          if (value.data === '[DONE]') return;
          yield JSON.parse(value.data) as E;
        } else {
          yield { event: value.event ?? 'message', data: JSON.parse(value.data) as unknown } as E;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
}
