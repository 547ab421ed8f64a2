import type { OperationId } from '../../generated/operations.js';
import type { MountKind, Surface } from '../wire/connection.js';
import { checkContentFilter, contentMatches, type JournalContentFilter } from './journalMatch.js';
import { checkScopeOperationId, inScope } from './requestScope.js';
import type { Har } from '../recording/har.js';
import { journalHar } from './journalHar.js';
import { redactAdminTokenHeader, redactAdminTokens } from '../support/adminTokenText.js';
import { candidates, fieldDifference, nearMisses, parsedBody, subsetDifferences, type Difference } from './nearMisses.js';
import { verificationFailure } from './verificationError.js';
import type { CoverageAnswerer } from './coverage.js';

/** What a fault did to a request (see `server.faults`). */
export type FaultType = 'error' | 'delay' | 'drop' | 'cut' | 'lose' | 'dribble';

/** The chaos rule that fired on a request (see `server.chaos`): its index in `rules`, and the draw under its probability. */
export interface JournalChaos {
  readonly rule: number;
  readonly draw: number;
}

/**
 * A request's headers as the journal keeps them, the same in process and over HTTP: a plain record of lower-case
 * names (`entry.headers['x-trace-id']`); repeated headers are joined with `, ` as `Headers.get` joins them.
 */
export type JournalHeaders = Readonly<Record<string, string>>;

/**
 * The journal's record of a request's headers (a null prototype: `headers.constructor` is no header), an admin
 * token in any of them redacted.
 */
export function journalHeaders(headers: Headers): JournalHeaders {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.forEach((value, name) => (out[name] = redactAdminTokenHeader(value)));
  return out;
}

/**
 * One request the server received. An admin token anywhere in it (path, query, a header, the body; as written or
 * URL- or JSON-escaped) reads `ozadm_…`: the token never leaves the server through the journal.
 */
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
  /** The request headers, by lower-case name. */
  readonly headers: JournalHeaders;
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
  /** The chaos rule whose draw put `fault` on the request, or `null` (no chaos rule fired). */
  chaos: JournalChaos | null;
  /** The answer replayed the kept answer of an earlier request with the same `x-trace-id` (`x-idempotent-replayed: true`). */
  replayed: boolean;
  /** A proxy stub sent the request on to this URL (origin and path; `null`: the server answered it). */
  proxied: string | null;
  /**
   * What gave the answer (`handler`: the server itself; `stub`; `fault`; `chaos`), as `server.coverage()` counts
   * it; `null` while under way, or when the connection was dropped before an answer.
   */
  answeredBy: CoverageAnswerer | null;
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
 * character's boundary), so 10,000 kept entries never hold more than 640 MiB whatever was sent. An admin token in
 * it is redacted (the length stays the body's as sent).
 */
export function keepBody(entry: JournalEntry, body: string): void {
  // A string of n UTF-16 units is at most 3n bytes of UTF-8: a short body is kept whole without encoding it.
  if (body.length * 3 <= JOURNAL_BODY_BYTES) {
    entry.body = redactAdminTokens(body);
    entry.bodyLength = utf8Length(body);
    entry.bodyTruncated = false;
    return;
  }
  const bytes = ENCODER.encode(body);
  entry.bodyLength = bytes.length;
  entry.bodyTruncated = bytes.length > JOURNAL_BODY_BYTES;
  // Decoding a cut in the middle of a character leaves U+FFFD at the end: drop it.
  entry.body = redactAdminTokens(entry.bodyTruncated ? new TextDecoder().decode(bytes.subarray(0, JOURNAL_BODY_BYTES)).replace(/\uFFFD$/, '') : body);
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
  /**
   * Asserts that `times` entries match (default: at least one). Else throws {@link OzVerificationError}, whose
   * message lists the closest entries (same operation, else path) and their first differing fields.
   */
  verify(filter: JournalFilter | OperationId, options?: VerifyOptions): void;
}

/** Options of {@link OzJournal.verify}. */
export interface VerifyOptions {
  /** Exactly how many entries must match (0 asserts none did). Default: at least one. */
  readonly times?: number;
}

/** The filter object of a filter or an operationId; throws a `TypeError` for an unknown operationId. */
export function journalFilter(filter: JournalFilter | string): JournalFilter {
  const f = typeof filter === 'string' ? { operationId: filter as OperationId } : filter;
  checkScopeOperationId(f.operationId);
  checkContentFilter(f);
  return f;
}

/** What of an entry differs from a filter (see `verify`). */
function filterDifferences(entry: JournalEntry, f: JournalFilter): Difference[] {
  const out = [...fieldDifference('operationId', f.operationId, entry.operationId), ...fieldDifference('method', f.method?.toUpperCase(), entry.method)];
  if (typeof f.path === 'string') out.push(...fieldDifference('path', f.path, entry.path));
  else if (f.path !== undefined && !f.path.test(entry.path)) out.push({ path: 'path', expected: `/${f.path.source}/`, actual: entry.path });
  out.push(...fieldDifference('status', f.status, entry.status), ...fieldDifference('account', f.account, entry.account));
  if (f.header !== undefined) {
    const colon = f.header.indexOf(':');
    const name = f.header.slice(0, colon).trim().toLowerCase();
    out.push(...fieldDifference(`header.${name}`, f.header.slice(colon + 1).trim(), entry.headers[name]));
  }
  if (f.body !== undefined) out.push(...subsetDifferences(f.body, parsedBody(entry), 'body'));
  return out;
}

/** A filter as a message shows it (a pattern as `/source/`). */
function describeFilter(f: JournalFilter): string {
  return JSON.stringify(f, (_, v: unknown) => (v instanceof RegExp ? `/${v.source}/` : v));
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

  verify(filter: JournalFilter | OperationId, options: VerifyOptions = {}): void {
    const f = journalFilter(filter);
    const times = options.times;
    if (times !== undefined && !(Number.isInteger(times) && times >= 0)) throw new TypeError('times must be an integer >= 0');
    const count = this.count(f);
    if (times === undefined ? count >= 1 : count === times) return;
    throw verificationFailure(
      describeFilter(f),
      times ?? null,
      count,
      nearMisses(candidates(this.entries, f), (e) => filterDifferences(e, f)),
    );
  }

  clear(): void {
    this.#ring = [];
    this.#start = 0;
    this.#ordered = [];
  }
}
