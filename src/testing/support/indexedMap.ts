import { OrderedIndex, type KeyOrder } from './orderedIndex.js';

/** How an {@link IndexedMap} orders and groups its records. */
export interface IndexSpec<R, K> {
  /** The position of a record in every index (a sequence number, a name). */
  readonly orderOf: (record: R, seq: number) => K;
  readonly order: KeyOrder<K>;
  /**
   * The names of the indexes a record belongs to, one per filter combination a list route offers (for example
   * `acct`, `acct|status=running`). Called again by {@link IndexedMap.reindex} after a field it reads changed.
   */
  readonly indexesOf: (record: R) => readonly string[];
}

/** A record and its place; never changed once made, so that clones share it. */
interface Entry<R, K> {
  readonly record: R;
  readonly seq: number;
  readonly key: K;
  readonly indexes: readonly string[];
}

const NONE: readonly string[] = [];

/** Ascending numbers: the order of sequence numbers. */
export const bySeq: KeyOrder<number> = (a, b) => a - b;

/**
 * A `Map` by id that keeps ordered secondary indexes in step with its writes, so that a list route reads any
 * page, at any depth and under any of its filters, in O(log n + page). `set` and `delete` index and unindex;
 * a write to a field an index reads (a status) must be followed by {@link IndexedMap.reindex}. One entry per
 * record holds the record and its place (no second map beside it).
 */
export class IndexedMap<R, K = number> implements Map<string, R> {
  #entries = new Map<string, Entry<R, K>>();
  // Each index holds ids, read through #entries: a record replaced (a clone's copy) leaves every index as it was.
  #indexes = new Map<string, OrderedIndex<K, string>>();
  #seq = 0;

  readonly #spec: IndexSpec<R, K>;

  constructor(spec: IndexSpec<R, K>) {
    this.#spec = spec;
  }

  get size(): number {
    return this.#entries.size;
  }

  get [Symbol.toStringTag](): string {
    return 'IndexedMap';
  }

  get(id: string): R | undefined {
    return this.#entries.get(id)?.record;
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  set(id: string, record: R): this {
    const had = this.#entries.get(id);
    if (had) this.#unplace(had);
    const seq = had?.seq ?? this.#seq++;
    const entry: Entry<R, K> = { record, seq, key: this.#spec.orderOf(record, seq), indexes: this.#spec.indexesOf(record) };
    this.#entries.set(id, entry);
    this.#place(id, entry);
    return this;
  }

  delete(id: string): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.#unplace(entry);
    return this.#entries.delete(id);
  }

  clear(): void {
    this.#entries.clear();
    this.#indexes.clear();
  }

  forEach(callback: (value: R, key: string, map: Map<string, R>) => void, thisArg?: unknown): void {
    for (const [id, entry] of this.#entries) callback.call(thisArg, entry.record, id, this);
  }

  *entries(): MapIterator<[string, R]> {
    for (const [id, entry] of this.#entries) yield [id, entry.record];
  }

  keys(): MapIterator<string> {
    return this.#entries.keys();
  }

  *values(): MapIterator<R> {
    for (const entry of this.#entries.values()) yield entry.record;
  }

  [Symbol.iterator](): MapIterator<[string, R]> {
    return this.entries();
  }

  /**
   * Moves a record to the indexes its fields now call for (after a status or a name changed). With `held`, only
   * if that record is the one held under `id`. Answers whether the id held a record (that one).
   */
  reindex(id: string, held?: R): boolean {
    const entry = this.#entries.get(id);
    if (!entry || (held !== undefined && entry.record !== held)) return false;
    this.#reindex(id, entry);
    return true;
  }

  #reindex(id: string, entry: Entry<R, K>): void {
    const key = this.#spec.orderOf(entry.record, entry.seq);
    const indexes = this.#spec.indexesOf(entry.record);
    if (indexes === entry.indexes && this.#spec.order(key, entry.key) === 0) return;
    const moved: Entry<R, K> = { record: entry.record, seq: entry.seq, key, indexes };
    this.#entries.set(id, moved);
    if (this.#spec.order(key, entry.key) !== 0) {
      this.#unplace(entry);
      this.#place(id, moved);
      return;
    }
    // Same position: only the indexes the record leaves or joins change (a status change keeps its account's).
    this.#unplace(entry, indexes);
    this.#place(id, moved, entry.indexes);
  }

  /**
   * A copy: the id map copied natively (its entries shared), the indexes shared chunk by chunk until either side
   * writes to one (see `OrderedIndex.clone`); `copy(record)` answers the record itself (shared: it is never written
   * to again) or a copy of it, which takes its entry's place in the copy (the indexes hold ids: none changes).
   */
  clone(copy: (record: R) => R): IndexedMap<R, K> {
    const out = new IndexedMap<R, K>(this.#spec);
    out.#seq = this.#seq;
    out.#entries = new Map(this.#entries);
    this.#indexes.forEach((index, name) => out.#indexes.set(name, index.clone()));
    // forEach rather than for...of: no [id, entry] pair made per record (a million of them at scale).
    this.#entries.forEach((entry, id) => {
      const record = copy(entry.record);
      if (record !== entry.record) out.#entries.set(id, { ...entry, record });
    });
    return out;
  }

  /** Where a record stands in the order (for a cursor), or `undefined` for an id not held. */
  positionOf(id: string): K | undefined {
    return this.#entries.get(id)?.key;
  }

  /** A page of one index: up to `limit` records after the position `after`, in the index's order or reversed. */
  page(index: string, after: K | undefined, limit: number, descending: boolean): R[] {
    return (
      this.#indexes
        .get(index)
        ?.page(after, limit, descending)
        .map((id) => this.#entries.get(id)!.record) ?? []
    );
  }

  /** The record at a position of an index (by name in an index ordered by name), if any. */
  find(index: string, key: K): R | undefined {
    const id = this.#indexes.get(index)?.get(key);
    return id === undefined ? undefined : this.#entries.get(id)?.record;
  }

  /** How many records an index holds. */
  sizeOf(index: string): number {
    return this.#indexes.get(index)?.size ?? 0;
  }

  #place(id: string, entry: Entry<R, K>, except: readonly string[] = NONE): void {
    for (const name of entry.indexes) {
      if (except.includes(name)) continue;
      let index = this.#indexes.get(name);
      if (!index) this.#indexes.set(name, (index = new OrderedIndex<K, string>(this.#spec.order)));
      index.insert(entry.key, id);
    }
  }

  #unplace(entry: Entry<R, K>, except: readonly string[] = NONE): void {
    for (const name of entry.indexes) {
      if (except.includes(name)) continue;
      // An emptied index is kept: a run passes through `running` in one request, and making the index again for
      // every run cost more than keeping it (there are only as many names as filter combinations in use).
      this.#indexes.get(name)?.delete(entry.key);
    }
  }
}
