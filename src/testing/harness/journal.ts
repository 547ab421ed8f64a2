import type { OperationId } from '../../generated/operations.js';
import type { MountKind, Surface } from '../wire/connection.js';
import { checkContentFilter, contentMatches, type JournalContentFilter } from './journalMatch.js';
import { checkScopeOperationId, inScope } from './requestScope.js';
import type { Har } from '../recording/har.js';
import { journalHar } from './journalHar.js';

/** What a fault did to a request (see `server.faults`). */
export type FaultType = 'error' | 'delay' | 'drop' | 'cut' | 'lose';

/** One request the server received. */
export interface JournalEntry {
  /** The `x-request-id` of the answer. */
  readonly requestId: string;
  /** The operation of openapi.json it matched, or `null` (unknown route, preflight). */
  readonly operationId: string | null;
  readonly mount: MountKind;
  readonly surface: Surface;
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  /** The query string, without `?` (empty when none). */
  readonly query: string;
  /** The request headers. */
  readonly headers: Headers;
  /**
   * The body as sent, or `null` when none was read (the route takes none, or the request was refused before
   * its body was read: a bad key, a foreign Host, a body over the bound). At most its first 64 KiB: see
   * `bodyTruncated`.
   */
  body: string | null;
  /** The whole body's length in bytes (UTF-8), or `null` when none was read. */
  bodyLength: number | null;
  /** Whether `body` holds only the first 64 KiB of a longer body. */
  bodyTruncated: boolean;
  /** The account whose key sent the request (`null`: no key, or one the server does not know). */
  account: string | null;
  /** The answer's status; `null` while under way, or when the connection was dropped before an answer. */
  status: number | null;
  /** The execution the answer belongs to (`X-Execution-Id`). */
  executionId: string | null;
  /** The fault applied to the request, if any. */
  fault: FaultType | null;
  /** The answer replayed the kept answer of an earlier request with the same `x-trace-id` (`x-idempotent-replayed: true`). */
  replayed: boolean;
  /** The server clock's time when it arrived (ms since the epoch). */
  readonly at: number;
}

const ENCODER = new TextEncoder();

/** The UTF-8 length of a string (a lone surrogate counts as the 3 bytes of U+FFFD), without encoding it. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** How much of a body the journal keeps: its first 64 KiB. */
export const JOURNAL_BODY_BYTES = 64 * 1024;

/**
 * Records a body in an entry: its length, and at most its first {@link JOURNAL_BODY_BYTES} bytes (cut on a
 * character's boundary), so 10,000 kept entries never hold more than 640 MiB whatever was sent.
 */
export function keepBody(entry: JournalEntry, body: string): void {
  // A string of n UTF-16 units is at most 3n bytes of UTF-8: a short body is kept whole without encoding it.
  if (body.length * 3 <= JOURNAL_BODY_BYTES) {
    entry.body = body;
    entry.bodyLength = utf8Length(body);
    entry.bodyTruncated = false;
    return;
  }
  const bytes = ENCODER.encode(body);
  entry.bodyLength = bytes.length;
  entry.bodyTruncated = bytes.length > JOURNAL_BODY_BYTES;
  // Decoding a cut in the middle of a character leaves U+FFFD at the end: drop it.
  entry.body = entry.bodyTruncated ? new TextDecoder().decode(bytes.subarray(0, JOURNAL_BODY_BYTES)).replace(/\uFFFD$/, '') : body;
}

/** Which entries to pick: every given field must match. */
export interface JournalFilter extends JournalContentFilter {
  /** An operationId of openapi.json; an unknown one throws a `TypeError`. */
  readonly operationId?: OperationId;
  readonly method?: string;
  /** An exact path, or a pattern. */
  readonly path?: string | RegExp;
  readonly status?: number;
}

/** The journal of received requests, oldest first, for assertions. */
export interface OzJournal {
  /** Every entry kept (the newest `journalLimit` of them). */
  readonly entries: readonly JournalEntry[];
  /** The entries that match. */
  filter(filter: JournalFilter | OperationId): JournalEntry[];
  /** The newest entry that matches, if any. */
  last(filter?: JournalFilter | OperationId): JournalEntry | undefined;
  /** How many entries match. */
  count(filter?: JournalFilter | OperationId): number;
  /** Forgets every entry. */
  clear(): void;
  /** The entries as a HAR 1.2 document (open it in a HAR viewer); `Authorization` and `X-API-Key` read `<redacted>`. */
  toHAR(): Har;
}

/** The filter object of a filter or an operationId; throws a `TypeError` for an unknown operationId. */
export function journalFilter(filter: JournalFilter | string): JournalFilter {
  const f = typeof filter === 'string' ? { operationId: filter as OperationId } : filter;
  checkScopeOperationId(f.operationId);
  checkContentFilter(f);
  return f;
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  return (filter.status === undefined || entry.status === filter.status) && inScope(entry, filter) && contentMatches(entry, filter);
}

/**
 * The journal, bounded to its newest `limit` entries: a ring buffer, so the oldest entry goes in O(1) when a new
 * one comes in (`Array.prototype.shift` of a large array copies it). The oldest-first array of `entries` is
 * built when read after a change.
 */
export class Journal implements OzJournal {
  #ring: JournalEntry[] = [];
  /** Where the oldest entry is once the ring is full. */
  #start = 0;
  #ordered: JournalEntry[] | null = [];

  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get entries(): readonly JournalEntry[] {
    if (this.#ordered === null) {
      this.#ordered = this.#start === 0 ? this.#ring.slice() : [...this.#ring.slice(this.#start), ...this.#ring.slice(0, this.#start)];
    }
    return this.#ordered;
  }

  add(entry: JournalEntry): void {
    if (this.#limit <= 0) return;
    this.#ordered = null;
    if (this.#ring.length < this.#limit) {
      this.#ring.push(entry);
      return;
    }
    this.#ring[this.#start] = entry;
    this.#start = this.#start + 1 === this.#ring.length ? 0 : this.#start + 1;
  }

  filter(filter: JournalFilter | OperationId): JournalEntry[] {
    const f = journalFilter(filter);
    return this.entries.filter((e) => matches(e, f));
  }

  last(filter: JournalFilter | OperationId = {}): JournalEntry | undefined {
    const f = journalFilter(filter);
    const n = this.#ring.length;
    for (let k = n - 1; k >= 0; k--) {
      const entry = this.#ring[(this.#start + k) % n]!;
      if (matches(entry, f)) return entry;
    }
    return undefined;
  }

  count(filter: JournalFilter | OperationId = {}): number {
    const f = journalFilter(filter);
    let n = 0;
    for (const e of this.#ring) if (matches(e, f)) n++;
    return n;
  }

  toHAR(): Har {
    return journalHar(this.entries);
  }

  clear(): void {
    this.#ring = [];
    this.#start = 0;
    this.#ordered = [];
  }
}
