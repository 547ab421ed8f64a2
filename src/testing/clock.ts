/** Options of the server's clock. */
export interface OzClockOptions {
  /**
   * Where the clock starts (a `Date`, an epoch in ms, or an RFC 3339 string). Default: the real time.
   */
  readonly start?: Date | number | string;
  /**
   * `true` stops the clock: time moves only through {@link OzClock.advance}, and scheduled work (item walks,
   * async runs, `slow`) waits for it. Default `false`: real time plus whatever was advanced.
   */
  readonly frozen?: boolean;
}

/**
 * The server's controllable clock. Every time the server reads (timestamps, key expiry, the key cache's
 * revocation delay, rate-limit windows, schedules) and every wait it makes (item walk steps, async runs, the
 * `slow` tool, stream pacing) goes through it, so a test can jump ahead with {@link OzClock.advance}.
 */
export interface OzClock {
  /** The clock's current time, in ms since the epoch. */
  now(): number;
  /** The clock's current time as RFC 3339 UTC with milliseconds. */
  iso(): string;
  /** Whether the clock stands still between {@link OzClock.advance} calls. */
  readonly frozen: boolean;
  /**
   * Moves the clock `ms` forward at once (so expiry and revocation apply on the next request), then fires, in
   * order, every timer that became due, letting the work they start settle between them. Await it before
   * asserting on what those timers do.
   */
  advance(ms: number): Promise<void>;
}

interface Timer {
  readonly dueAt: number;
  readonly seq: number;
  readonly work: boolean;
  fn: (() => void) | null;
  real: ReturnType<typeof setTimeout> | null;
}

/** A timer that can be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

/** The clock with the timer machinery the server uses; only {@link OzClock} is public. */
export class ServerClock implements OzClock {
  readonly frozen: boolean;
  private offset: number;
  private readonly frozenBase: number;
  private readonly timers = new Set<Timer>();
  private seq = 0;

  constructor(options: OzClockOptions = {}) {
    this.frozen = options.frozen === true;
    const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
    if (Number.isNaN(start)) throw new TypeError(`clock.start is not a date: ${String(options.start)}`);
    this.frozenBase = start;
    this.offset = this.frozen ? 0 : start - Date.now();
  }

  now(): number {
    return this.frozen ? this.frozenBase + this.offset : Date.now() + this.offset;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  async advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${ms}`);
    this.offset += ms;
    for (;;) {
      const due = this.nextDue(false);
      if (!due || due.dueAt > this.now()) break;
      this.fire(due);
      // Let the promise chains the timer started run before the next timer fires.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // Real timers of what is not yet due must be re-armed for the shorter remaining time.
    if (!this.frozen) for (const t of this.timers) this.arm(t);
  }

  /**
   * Runs `fn` after `ms` of clock time. `work` timers count for {@link ServerClock.nextWorkDue} (idle) and keep
   * the process alive; other timers (schedules) do not.
   */
  timer(ms: number, fn: () => void, work = true): TimerHandle {
    const t: Timer = { dueAt: this.now() + Math.max(0, ms), seq: this.seq++, work, fn, real: null };
    this.timers.add(t);
    this.arm(t);
    return { cancel: () => this.drop(t) };
  }

  /** A promise that resolves after `ms` of clock time (a work timer). */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.timer(ms, resolve));
  }

  /** When the earliest pending work timer is due, or `null` when none is pending. */
  nextWorkDue(): number | null {
    return this.nextDue(true)?.dueAt ?? null;
  }

  /** Drops every pending timer (the server closes). */
  cancelAll(): void {
    for (const t of [...this.timers]) this.drop(t);
  }

  private nextDue(workOnly: boolean): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (workOnly && !t.work) continue;
      if (!best || t.dueAt < best.dueAt || (t.dueAt === best.dueAt && t.seq < best.seq)) best = t;
    }
    return best;
  }

  private arm(t: Timer): void {
    if (this.frozen) return;
    if (t.real) clearTimeout(t.real);
    // setTimeout holds at most 2^31-1 ms; a later timer re-arms until it is due.
    const delay = Math.min(Math.max(0, t.dueAt - this.now()), 2 ** 31 - 1);
    t.real = setTimeout(() => (this.now() >= t.dueAt ? this.fire(t) : this.arm(t)), delay);
    // Where timers have no unref (Cloudflare Workers), nothing keeps a process alive anyway.
    if (!t.work) t.real.unref?.();
  }

  private fire(t: Timer): void {
    const fn = t.fn;
    this.drop(t);
    if (fn) fn();
  }

  private drop(t: Timer): void {
    if (t.real) clearTimeout(t.real);
    t.real = null;
    t.fn = null;
    this.timers.delete(t);
  }
}
