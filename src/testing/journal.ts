import type { OperationId } from '../generated/operations.js';
import type { MountKind, Surface } from './connection.js';
import { checkScopeOperationId, inScope } from './requestScope.js';

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
  /** The body as sent, or `null` when the route takes none. */
  body: string | null;
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

/** Which entries to pick: every given field must match. */
export interface JournalFilter {
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
}

/** The filter object of a filter or an operationId; throws a `TypeError` for an unknown operationId. */
export function journalFilter(filter: JournalFilter | string): JournalFilter {
  const f = typeof filter === 'string' ? { operationId: filter as OperationId } : filter;
  checkScopeOperationId(f.operationId);
  return f;
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  return (filter.status === undefined || entry.status === filter.status) && inScope(entry, filter);
}

/** The journal, bounded to its newest `limit` entries. */
export class Journal implements OzJournal {
  private list: JournalEntry[] = [];

  constructor(private readonly limit: number) {}

  get entries(): readonly JournalEntry[] {
    return this.list;
  }

  add(entry: JournalEntry): void {
    if (this.limit <= 0) return;
    this.list.push(entry);
    // Trim in batches: one splice per `limit` requests keeps the hot path cheap.
    if (this.list.length >= this.limit * 2) this.list = this.list.slice(-this.limit);
  }

  filter(filter: JournalFilter | OperationId): JournalEntry[] {
    const f = journalFilter(filter);
    return this.list.filter((e) => matches(e, f));
  }

  last(filter: JournalFilter | OperationId = {}): JournalEntry | undefined {
    const f = journalFilter(filter);
    for (let i = this.list.length - 1; i >= 0; i--) if (matches(this.list[i]!, f)) return this.list[i];
    return undefined;
  }

  count(filter: JournalFilter | OperationId = {}): number {
    return this.filter(filter).length;
  }

  clear(): void {
    this.list = [];
  }
}
