/**
 * One generation of the server's state: reset, restore and close end it and begin the next. Work started in the
 * background (a queued run, an item's walk, a schedule's timer) keeps the {@link StateLifetime.signal} of its
 * generation and stops once it is aborted: it never writes into state that replaced the one it began in.
 */
export class StateLifetime {
  #controller = new AbortController();

  /** The current generation's signal: aborted when the generation ends. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends the current generation (its signal aborts) and begins a new one. */
  renew(): void {
    this.#controller.abort();
    this.#controller = new AbortController();
  }
}
