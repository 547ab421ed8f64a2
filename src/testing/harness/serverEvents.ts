import type { JournalEntry } from './journal.js';
import type { Surface } from '../wire/connection.js';

/** How a request was routed. */
export type RouteKind = 'operation' | 'not_found' | 'preflight' | 'method_not_allowed';

/** What {@link OzServer.onResponse} listeners get for every answer the server gives. */
export interface ResponseEvent {
  /** The operation of openapi.json, or `null` when the request matched none. */
  readonly operationId: string | null;
  /** `operation`, or what answered instead: 404 `not_found`, a CORS preflight, or 405 (GET on the MCP URL). */
  readonly route: RouteKind;
  readonly surface: Surface;
  /** The request (its body already read: see `journal.body`). */
  readonly request: Request;
  /** A clone of the answer: reading it does not disturb the client's copy. */
  readonly response: Response;
  /** The journal entry of the request. */
  readonly journal: JournalEntry;
}

/** A listener of answers. */
export type ResponseListener = (event: ResponseEvent) => void;

/** The server's lifecycle events, by name, and what a listener of each gets. */
export interface ServerEventMap {
  /** An answer was given (see {@link ResponseEvent}). */
  readonly response: ResponseEvent;
  /** A request's journal entry has its answer's status (the control plane's live feed, `GET /_oz/events`). */
  readonly answered: JournalEntry;
}

/** A typed emitter of the server's lifecycle events: listeners are called in the order they were added. */
export class ServerEvents {
  readonly #listeners: { readonly [K in keyof ServerEventMap]: Set<(event: ServerEventMap[K]) => void> } = { response: new Set(), answered: new Set() };

  /** Adds a listener; the function returned removes it. */
  on<K extends keyof ServerEventMap>(name: K, listener: (event: ServerEventMap[K]) => void): () => void {
    const set = this.#listeners[name];
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** Whether anyone listens: an event whose making costs (a clone of the answer) is made only then. */
  has(name: keyof ServerEventMap): boolean {
    return this.#listeners[name].size > 0;
  }

  /** Calls every listener of `name` with an event of its own made by `make` (an answer's clone is read once). */
  emit<K extends keyof ServerEventMap>(name: K, make: () => ServerEventMap[K]): void {
    for (const listener of this.#listeners[name]) listener(make());
  }
}
