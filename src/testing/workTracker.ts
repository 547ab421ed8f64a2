import type { ServerClock } from './clock.js';

/** The server's work in flight (runs, item walks), so a test can wait until all of it settled. */
export class WorkTracker {
  private readonly inflight = new Set<Promise<unknown>>();

  /** Counts a promise as work until it settles; answers the same promise. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    const done = () => this.inflight.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** Whether any work is in flight or scheduled. */
  busy(clock: ServerClock): boolean {
    return this.inflight.size > 0 || clock.nextWorkDue() !== null;
  }

  /**
   * Resolves once no work is in flight and no work timer is pending. A frozen clock is advanced to each next
   * timer; a running clock is waited for in real time.
   */
  async idle(clock: ServerClock): Promise<void> {
    for (;;) {
      if (this.inflight.size > 0) {
        await Promise.allSettled([...this.inflight]);
        continue;
      }
      const next = clock.nextWorkDue();
      if (next === null) {
        // One more turn: settling work may schedule more.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.inflight.size === 0 && clock.nextWorkDue() === null) return;
        continue;
      }
      const wait = Math.max(0, next - clock.now());
      if (clock.frozen) await clock.advance(wait);
      else await new Promise<void>((resolve) => setTimeout(resolve, wait + 1));
    }
  }
}
