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

interface Placement<K> {
  readonly seq: number;
  key: K;
  indexes: readonly string[];
}

/** Ascending numbers: the order of sequence numbers. */
export const bySeq: KeyOrder<number> = (a, b) => a - b;

/**
 * A `Map` by id that keeps ordered secondary indexes in step with its writes, so that a list route reads any
 * page, at any depth and under any of its filters, in O(log n + page). `set` and `delete` index and unindex;
 * a write to a field an index reads (a status) must be followed by {@link IndexedMap.reindex}.
 */
export class IndexedMap<R, K = number> extends Map<string, R> {
  private readonly placements = new Map<string, Placement<K>>();
  private readonly indexes = new Map<string, OrderedIndex<K, R>>();
  private seq = 0;
  private spec: IndexSpec<R, K> | undefined;

  constructor(spec: IndexSpec<R, K>) {
    // Map's constructor calls `set` for an iterable: none is passed, and the spec is set after it.
    super();
    this.spec = spec;
  }

  override set(id: string, record: R): this {
    const spec = this.spec;
    if (!spec) return super.set(id, record);
    const had = this.placements.get(id);
    if (had) this.unplace(had);
    super.set(id, record);
    const seq = had?.seq ?? this.seq++;
    const placement: Placement<K> = { seq, key: spec.orderOf(record, seq), indexes: spec.indexesOf(record) };
    this.placements.set(id, placement);
    this.place(placement, record);
    return this;
  }

  override delete(id: string): boolean {
    const placement = this.placements.get(id);
    if (placement) {
      this.unplace(placement);
      this.placements.delete(id);
    }
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.placements.clear();
    this.indexes.clear();
  }

  /** Moves a record to the indexes its fields now call for (after a status or a name changed). */
  reindex(id: string): void {
    const placement = this.placements.get(id);
    const record = super.get(id);
    if (!placement || record === undefined) return;
    const spec = this.spec!;
    const key = spec.orderOf(record, placement.seq);
    const indexes = spec.indexesOf(record);
    if (spec.order(key, placement.key) === 0 && sameNames(indexes, placement.indexes)) return;
    this.unplace(placement);
    placement.key = key;
    placement.indexes = indexes;
    this.place(placement, record);
  }

  /** Where a record stands in the order (for a cursor), or `undefined` for an id not held. */
  positionOf(id: string): K | undefined {
    return this.placements.get(id)?.key;
  }

  /** A page of one index: up to `limit` records after the position `after`, in the index's order or reversed. */
  page(index: string, after: K | undefined, limit: number, descending: boolean): R[] {
    return this.indexes.get(index)?.page(after, limit, descending) ?? [];
  }

  /** The record at a position of an index (by name in an index ordered by name), if any. */
  find(index: string, key: K): R | undefined {
    return this.indexes.get(index)?.get(key);
  }

  /** How many records an index holds. */
  sizeOf(index: string): number {
    return this.indexes.get(index)?.size ?? 0;
  }

  private place(placement: Placement<K>, record: R): void {
    for (const name of placement.indexes) {
      let index = this.indexes.get(name);
      if (!index) this.indexes.set(name, (index = new OrderedIndex<K, R>(this.spec!.order)));
      index.insert(placement.key, record);
    }
  }

  private unplace(placement: Placement<K>): void {
    for (const name of placement.indexes) {
      const index = this.indexes.get(name);
      if (!index) continue;
      index.delete(placement.key);
      if (index.size === 0) this.indexes.delete(name);
    }
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
