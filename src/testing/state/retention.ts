/**
 * How many finished records the server keeps: beyond a limit the earliest finished are dropped, and a dropped
 * record answers its not-found code like one that never existed. Unfinished work (queued or running
 * executions; active or parked items) is never dropped. Idempotency records and the journal have limits of
 * their own.
 */
export interface RetentionOptions {
  /** Finished executions (succeeded, failed, cancelled) kept, with their traces. Default 50000. */
  readonly executions?: number;
  /** Finished items (done, failed) kept. Default 50000. */
  readonly items?: number;
}

/** The retention limits with their defaults. */
export interface RetentionLimits {
  readonly executions: number;
  readonly items: number;
}

/** The default limits: with the journal's 10000 entries, a heap of a few hundred MB at most (bench/RESULTS.md). */
export const DEFAULT_RETENTION: RetentionLimits = { executions: 50_000, items: 50_000 };

/** Checks and fills in the limits: each a whole number >= 0, or `Infinity` to keep everything. */
export function retentionLimits(options: RetentionOptions = {}): RetentionLimits {
  const limit = (value: number | undefined, name: keyof RetentionLimits): number => {
    if (value === undefined) return DEFAULT_RETENTION[name];
    if (value !== Infinity && !(Number.isInteger(value) && value >= 0)) {
      throw new RangeError(`retention.${name} must be a whole number >= 0 or Infinity, got ${String(value)}`);
    }
    return value;
  };
  return { executions: limit(options.executions, 'executions'), items: limit(options.items, 'items') };
}

/**
 * The finished records of one collection in the order they finished; once more than `limit` are held, the
 * earliest go. O(1) per record finished (amortized).
 */
export class RetentionQueue<R> {
  #ids: string[] = [];
  #head = 0;
  readonly #queued = new Set<string>();

  readonly #limit: number;
  readonly #finished: (record: R) => boolean;

  constructor(limit: number, finished: (record: R) => boolean) {
    this.#limit = limit;
    this.#finished = finished;
  }

  /** Notes that a record may have finished, and drops the earliest finished beyond the limit. */
  noteChanged(map: Map<string, R>, id: string, record: R): void {
    if (this.#limit === Infinity || !this.#finished(record) || this.#queued.has(id)) return;
    this.#queued.add(id);
    this.#ids.push(id);
    this.#trim(map);
  }

  /** Starts over from the records of `map` (new data after a reset or restore), oldest first. */
  rebuild(map: Map<string, R>): void {
    this.#ids = [];
    this.#head = 0;
    this.#queued.clear();
    if (this.#limit === Infinity) return;
    for (const [id, record] of map) {
      if (!this.#finished(record)) continue;
      this.#queued.add(id);
      this.#ids.push(id);
    }
    this.#trim(map);
  }

  #trim(map: Map<string, R>): void {
    while (this.#ids.length - this.#head > this.#limit) {
      const id = this.#ids[this.#head++]!;
      this.#queued.delete(id);
      const record = map.get(id);
      // A record deleted or replaced since (and not finished) is left alone.
      if (record !== undefined && this.#finished(record)) map.delete(id);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#ids.length) {
      this.#ids = this.#ids.slice(this.#head);
      this.#head = 0;
    }
  }
}
