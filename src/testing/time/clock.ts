import { isoTime } from '../support/isoTime.js';

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
   * Moves the clock `ms` forward, firing on the way every timer due up to the new time in time order (the clock
   * stands at each timer's time while it fires), including timers that fired timers set, and letting the
   * promise chains each one starts settle (one macrotask turn) before the next, like fake timers'
   * `tickAsync`: `advance(5010)` finishes a 5 s run, `advance(3 * 3600_000)` fires an hourly schedule three
   * times. Await it before asserting on what those timers do.
   */
  advance(ms: number): Promise<void>;
}

interface Timer {
  readonly dueAt: number;
  readonly seq: number;
  readonly work: boolean;
  fn: (() => void) | null;
}

/** A timer that can be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

/** Whether timer `a` fires before timer `b`: the earlier due time, then the one set first. */
function before(a: Timer, b: Timer): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}

/**
 * A binary min-heap of timers in firing order. Cancelled timers stay in it (their `fn` is `null`) until they
 * reach the top or outnumber the live ones, when it is rebuilt: cancelling is O(1), firing O(log n).
 */
class TimerHeap {
  #heap: Timer[] = [];
  #dead = 0;

  /** Live timers. */
  get size(): number {
    return this.#heap.length - this.#dead;
  }

  push(t: Timer): void {
    const heap = this.#heap;
    let i = heap.push(t) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(t, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = t;
  }

  /** The next live timer, or `undefined`. */
  peek(): Timer | undefined {
    while (this.#heap.length > 0 && this.#heap[0]!.fn === null) {
      this.#dead--;
      this.pop();
    }
    return this.#heap[0];
  }

  /** Counts a timer of this heap as cancelled. */
  cancelled(): void {
    this.#dead++;
    if (this.#dead > 64 && this.#dead * 2 > this.#heap.length) {
      this.#heap = this.#heap.filter((t) => t.fn !== null);
      this.#dead = 0;
      for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#siftDown(i);
    }
  }

  /** Removes the top timer (live or not). */
  pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    this.#siftDown(0);
  }

  clear(): Timer[] {
    const all = this.#heap;
    this.#heap = [];
    this.#dead = 0;
    return all;
  }

  #siftDown(i: number): void {
    const heap = this.#heap;
    const t = heap[i]!;
    const n = heap.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, t)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = t;
  }
}

/** One macrotask turn: the promise chains started by a fired timer run before the next one fires. */
function settle(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The clock with the timer machinery the server uses; only {@link OzClock} is public. Timers wait in two heaps
 * (work, and the rest such as schedules); a running clock arms one real `setTimeout` for the earliest of them.
 */
/** The earliest time the server clock shows: 1970-01-01T00:00:00.000Z. */
export const CLOCK_MIN_MS = 0;
/** The latest: 9999-12-31T23:59:59.999Z (RFC 3339 has four-digit years; past it ISO strings read `+010000-...`). */
export const CLOCK_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Throws a `RangeError` when `ms` is outside the clock's range; `what` says what would have put it there. */
function checkClockTime(ms: number, what: string): void {
  if (ms >= CLOCK_MIN_MS && ms <= CLOCK_MAX_MS) return;
  const at = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms since 1970`;
  throw new RangeError(`${what} would put the server clock at ${at}, outside its range 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z`);
}

export class ServerClock implements OzClock {
  #isFrozen: boolean;
  #offset: number;
  #frozenBase: number;
  readonly #work = new TimerHeap();
  readonly #other = new TimerHeap();
  #seq = 0;
  #alarm: ReturnType<typeof setTimeout> | null = null;
  #alarmAt = Infinity;
  #advancing = 0;
  /** While due timers fire from the real timeout, new timers wait for its end instead of arming. */
  #ringing = false;

  constructor(options: OzClockOptions = {}) {
    this.#isFrozen = options.frozen === true;
    const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
    if (Number.isNaN(start)) throw new TypeError(`clock.start is not a date: ${String(options.start)}`);
    checkClockTime(start, 'clock.start');
    this.#frozenBase = start;
    this.#offset = this.frozen ? 0 : start - Date.now();
  }

  get frozen(): boolean {
    return this.#isFrozen;
  }

  now(): number {
    return this.#isFrozen ? this.#frozenBase + this.#offset : Date.now() + this.#offset;
  }

  /**
   * Stops the clock where it stands, or lets a frozen one run on from its time (the control plane's
   * `POST /_oz/clock {frozen}`). Timers keep their due times; a running clock arms the earliest.
   */
  setFrozen(frozen: boolean): void {
    if (frozen === this.#isFrozen) return;
    const now = this.now();
    this.#isFrozen = frozen;
    this.#frozenBase = now;
    this.#offset = frozen ? 0 : now - Date.now();
    this.#rearm();
  }

  iso(): string {
    return isoTime(this.now());
  }

  async advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${ms}`);
    const target = this.now() + ms;
    checkClockTime(target, `advance(${ms})`);
    this.#advancing++;
    try {
      for (;;) {
        const due = this.#peek();
        if (!due || due.dueAt > Math.max(target, this.now())) break;
        // The clock stands at each timer's time while it fires, so what it sets is due relative to that time.
        if (due.dueAt > this.now()) this.#offset += due.dueAt - this.now();
        this.#fire(due);
        await settle();
      }
      if (target > this.now()) this.#offset += target - this.now();
    } finally {
      this.#advancing--;
      this.#rearm();
    }
  }

  /**
   * Runs `fn` after `ms` of clock time. `work` timers count for {@link ServerClock.nextWorkDue} (idle) and keep
   * the process alive; other timers (schedules) do not.
   */
  timer(ms: number, fn: () => void, work = true): TimerHandle {
    const t: Timer = { dueAt: this.now() + (ms > 0 ? ms : 0), seq: this.#seq++, work, fn };
    (work ? this.#work : this.#other).push(t);
    if (t.dueAt < this.#alarmAt || (work && this.#alarm !== null && !this.#alarm.hasRef())) this.#rearm();
    return { cancel: () => this.#drop(t) };
  }

  /** A promise that resolves after `ms` of clock time (a work timer). */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.timer(ms, resolve));
  }

  /** When the earliest pending work timer is due, or `null` when none is pending. */
  nextWorkDue(): number | null {
    return this.#work.peek()?.dueAt ?? null;
  }

  /** How many timers are pending (work and other). */
  get pending(): number {
    return this.#work.size + this.#other.size;
  }

  /** Drops every pending timer (the server closes). */
  cancelAll(): void {
    for (const t of [...this.#work.clear(), ...this.#other.clear()]) t.fn = null;
    this.#rearm();
  }

  /** The next timer to fire, of either heap. */
  #peek(): Timer | undefined {
    const w = this.#work.peek();
    const o = this.#other.peek();
    return !w ? o : !o ? w : before(w, o) ? w : o;
  }

  /** Arms the one real timeout of a running clock for the earliest timer (none while `advance` runs). */
  #rearm(): void {
    if (this.#alarm) clearTimeout(this.#alarm);
    this.#alarm = null;
    this.#alarmAt = Infinity;
    if (this.frozen || this.#advancing > 0 || this.#ringing) return;
    const next = this.#peek();
    if (!next) return;
    this.#alarmAt = next.dueAt;
    // setTimeout holds at most 2^31-1 ms; a later timer re-arms until it is due.
    const delay = Math.min(Math.max(0, next.dueAt - this.now()), 2 ** 31 - 1);
    this.#alarm = setTimeout(() => void this.#ring(), delay);
    // Where timers have no unref (Cloudflare Workers), nothing keeps a process alive anyway.
    if (this.#work.size === 0) this.#alarm.unref?.();
  }

  /** The real timeout rang: fires every timer due, in order, one macrotask apart (as Node's own timers do). */
  async #ring(): Promise<void> {
    this.#alarm = null;
    this.#ringing = true;
    try {
      for (;;) {
        if (this.#advancing > 0) return;
        const due = this.#peek();
        if (!due || due.dueAt > this.now()) break;
        this.#fire(due);
        await settle();
      }
    } finally {
      this.#ringing = false;
      this.#rearm();
    }
  }

  #fire(t: Timer): void {
    const fn = t.fn;
    (t.work ? this.#work : this.#other).pop();
    t.fn = null;
    if (fn) fn();
  }

  #drop(t: Timer): void {
    if (t.fn === null) return;
    t.fn = null;
    (t.work ? this.#work : this.#other).cancelled();
  }
}
