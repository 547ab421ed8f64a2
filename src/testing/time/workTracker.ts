import type { ServerClock } from './clock.js';

/** The server's work in flight (runs, item walks), so a test can wait until all of it settled. */
export class WorkTracker {
  readonly #inflight = new Set<Promise<unknown>>();

  /** Counts a promise as work until it settles; answers the same promise. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.#inflight.add(promise);
    const done = () => this.#inflight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** Whether any work is in flight or scheduled. */
  busy(clock: ServerClock): boolean {
    return this.#inflight.size > 0 || clock.nextWorkDue() !== null;
  }

  /**
   * Resolves once no work is in flight and no work timer is pending. A frozen clock is advanced to each next
   * timer (work in flight may be waiting on one); a running clock is waited for in real time.
   */
  async idle(clock: ServerClock): Promise<void> {
    for (;;) {
      const next = clock.nextWorkDue();
      if (this.#inflight.size === 0 && next === null) {
        // One more turn: settling work may schedule more.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.#inflight.size === 0 && clock.nextWorkDue() === null) return;
        continue;
      }
      if (next !== null && clock.frozen) {
        await clock.advance(Math.max(0, next - clock.now()));
        continue;
      }
      // Wait for the work in flight or the next timer, whichever comes first (never a bare microtask turn:
      // with nothing in flight that would spin without letting the timer fire).
      const wait = next === null ? 5 : Math.max(0, next - clock.now()) + 1;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)));
      await (this.#inflight.size > 0 ? Promise.race([Promise.allSettled([...this.#inflight]), elapsed]) : elapsed);
      clearTimeout(timer);
    }
  }
}
