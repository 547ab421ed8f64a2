/** Orders the keys of an {@link OrderedIndex}: negative, zero or positive, like `Array.prototype.sort`'s. */
export type KeyOrder<K> = (a: K, b: K) => number;

interface Chunk<K, R> {
  keys: K[];
  rows: R[];
  /** The index that may write to it in place; any other copies it first (see {@link OrderedIndex.clone}). */
  owner: object;
}

/** Rows per chunk before it splits in two: small enough that a splice inside one costs little. */
const MAX_CHUNK = 512;

/**
 * Rows ordered by a unique key, held in sorted chunks (a one-level B-tree): insert, delete and seek cost
 * O(log n + chunk size), and reading a page from any position costs O(log n + page), at any depth. Appends in
 * key order (the usual case: sequence numbers) take the fast path at the end.
 */
export class OrderedIndex<K, R> {
  #chunks: Array<Chunk<K, R>> = [];
  #count = 0;
  // Whose chunks this index writes in place: a chunk of another owner is shared with a clone, copied on first write.
  #owner: object = {};

  readonly #order: KeyOrder<K>;

  constructor(order: KeyOrder<K>) {
    this.#order = order;
  }

  get size(): number {
    return this.#count;
  }

  insert(key: K, row: R): void {
    this.#count++;
    const end = this.#chunks.length - 1;
    const last = this.#chunks[end];
    if (!last) {
      this.#chunks.push({ keys: [key], rows: [row], owner: this.#owner });
      return;
    }
    if (this.#order(last.keys[last.keys.length - 1]!, key) < 0) {
      if (last.keys.length < MAX_CHUNK) {
        const own = this.#writable(end);
        own.keys.push(key);
        own.rows.push(row);
      } else {
        this.#chunks.push({ keys: [key], rows: [row], owner: this.#owner });
      }
      return;
    }
    const c = this.#chunkFor(key);
    const chunk = this.#writable(c);
    const at = this.#lowerBound(chunk.keys, key);
    chunk.keys.splice(at, 0, key);
    chunk.rows.splice(at, 0, row);
    if (chunk.keys.length > MAX_CHUNK) {
      const half = chunk.keys.length >> 1;
      this.#chunks.splice(c + 1, 0, { keys: chunk.keys.splice(half), rows: chunk.rows.splice(half), owner: this.#owner });
    }
  }

  /** Removes the row of `key`; answers whether there was one. */
  delete(key: K): boolean {
    if (this.#chunks.length === 0) return false;
    // Oldest-first eviction removes the first key: no search for it.
    const c = this.#order(this.#chunks[0]!.keys[0]!, key) === 0 ? 0 : this.#chunkFor(key);
    const found = this.#chunks[c]!;
    const at = this.#lowerBound(found.keys, key);
    if (at >= found.keys.length || this.#order(found.keys[at]!, key) !== 0) return false;
    this.#count--;
    if (found.keys.length === 1) {
      this.#chunks.splice(c, 1);
      return true;
    }
    const chunk = this.#writable(c);
    if (at === 0) {
      // Oldest-first eviction removes from the front: shift() is cheaper than a splice there.
      chunk.keys.shift();
      chunk.rows.shift();
    } else {
      chunk.keys.splice(at, 1);
      chunk.rows.splice(at, 1);
    }
    return true;
  }

  /**
   * Up to `limit` rows after `after` (exclusive; from the start when `undefined`) in ascending key order, or
   * before it in descending order when `descending`. `after` need not be a key of the index.
   */
  page(after: K | undefined, limit: number, descending: boolean): R[] {
    const out: R[] = [];
    if (this.#chunks.length === 0 || limit <= 0) return out;
    if (descending) {
      let c = this.#chunks.length - 1;
      let i = this.#chunks[c]!.keys.length - 1;
      if (after !== undefined) {
        c = this.#chunkFor(after);
        i = this.#lowerBound(this.#chunks[c]!.keys, after) - 1;
      }
      for (; c >= 0 && out.length < limit; c--, i = c >= 0 ? this.#chunks[c]!.keys.length - 1 : 0) {
        const rows = this.#chunks[c]!.rows;
        for (; i >= 0 && out.length < limit; i--) out.push(rows[i]!);
      }
      return out;
    }
    let c = 0;
    let i = 0;
    if (after !== undefined) {
      c = this.#chunkFor(after);
      i = this.#upperBound(this.#chunks[c]!.keys, after);
    }
    for (; c < this.#chunks.length && out.length < limit; c++, i = 0) {
      const rows = this.#chunks[c]!.rows;
      for (; i < rows.length && out.length < limit; i++) out.push(rows[i]!);
    }
    return out;
  }

  /**
   * A copy in O(n / chunk size): the chunks are shared (copy on write). Each index writes in place only to the
   * chunks it made or copied itself, so both this index and the copy copy a shared chunk (at most 512 rows) on
   * their first write to it, and neither ever sees the other's writes. The rows themselves are shared.
   */
  clone(): OrderedIndex<K, R> {
    const copy = new OrderedIndex<K, R>(this.#order);
    copy.#chunks = this.#chunks.slice();
    copy.#count = this.#count;
    // Every chunk now has another reader: this index too copies before it writes.
    this.#owner = {};
    return copy;
  }

  /** The chunk at `c`, this index's own to write in place (copied first when it is shared with a clone). */
  #writable(c: number): Chunk<K, R> {
    const chunk = this.#chunks[c]!;
    if (chunk.owner === this.#owner) return chunk;
    const own = { keys: chunk.keys.slice(), rows: chunk.rows.slice(), owner: this.#owner };
    this.#chunks[c] = own;
    return own;
  }

  /** The row of `key`, if any. */
  get(key: K): R | undefined {
    if (this.#chunks.length === 0) return undefined;
    const chunk = this.#chunks[this.#chunkFor(key)]!;
    const at = this.#lowerBound(chunk.keys, key);
    return at < chunk.keys.length && this.#order(chunk.keys[at]!, key) === 0 ? chunk.rows[at] : undefined;
  }

  /** Every row in ascending key order. */
  *rows(): IterableIterator<R> {
    for (const chunk of this.#chunks) yield* chunk.rows;
  }

  /** The chunk whose key range holds `key` (the first whose last key is >= key, else the last chunk). */
  #chunkFor(key: K): number {
    let lo = 0;
    let hi = this.#chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const keys = this.#chunks[mid]!.keys;
      if (this.#order(keys[keys.length - 1]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first position whose key is >= `key`. */
  #lowerBound(keys: readonly K[], key: K): number {
    return this.#bound(keys, key, false);
  }

  /** The first position whose key is > `key`. */
  #upperBound(keys: readonly K[], key: K): number {
    return this.#bound(keys, key, true);
  }

  /** The first position whose key is not below `key` (`above`: above it). */
  #bound(keys: readonly K[], key: K, above: boolean): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = this.#order(keys[mid]!, key);
      if (c < 0 || (above && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
