/**
 * One generation of the server's state: reset, restore and close end it and begin the next. Work started in the
 * background (a queued run, an item's walk, a schedule's timer) keeps the {@link StateLifetime.signal} of its
 * generation and stops once it is aborted: it never writes into state that replaced the one it began in. What must
 * act at the end itself (an open event stream, a request waiting for its run) registers with
 * {@link StateLifetime.onEnd}: a set per generation, so any number of them add no listener to the signal.
 */
export class StateLifetime {
  #controller = new AbortController();
  #ends = new Set<() => void>();

  /** The current generation's signal: aborted when the generation ends. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Calls `listener` once when the current generation ends; answers the function that forgets it before. */
  onEnd(listener: () => void): () => void {
    const ends = this.#ends;
    ends.add(listener);
    return () => void ends.delete(listener);
  }

  /** Ends the current generation (its signal aborts, its end listeners are called) and begins a new one. */
  renew(): void {
    const ends = this.#ends;
    this.#ends = new Set();
    this.#controller.abort();
    this.#controller = new AbortController();
    for (const listener of ends) listener();
  }
}
