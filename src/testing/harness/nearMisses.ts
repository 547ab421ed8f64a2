import { matchPathTemplate } from '../../generated/pathTemplate.js';
import { ROUTE_BY_ID, type OperationRoute } from '../../generated/routes.js';
import { jsonSubset } from '../support/jsonSubset.js';

/** One field where a request differs from what a stub, fault or journal filter expects. */
export interface Difference {
  /** The field: `path.id`, `query.limit`, `body.user.id`, `account`, `method`, `path`, `status`, `header.x-trace-id`. */
  readonly path: string;
  readonly expected: unknown;
  /** What the request had (`undefined` when it had nothing there). */
  readonly actual: unknown;
}

/** What of a journal entry a near miss reads (a `JournalEntry` is one). */
export interface SeenRequest {
  readonly requestId: string;
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly body: string | null;
  readonly status: number | null;
  readonly account: string | null;
  readonly at: number;
}

/** A journal entry close to what a stub, fault or filter expects (`at`: its arrival, ms), with what differs. */
export interface NearMiss extends Pick<SeenRequest, 'requestId' | 'operationId' | 'method' | 'path' | 'query' | 'status' | 'at'> {
  /** Every field that differs, in the order the expectation names them. */
  readonly differences: readonly Difference[];
}

/** How many near misses a listing or a verification names. */
export const NEAR_MISS_LIMIT = 3;

/** The path parameters of an entry, read with its operation's route (`{}` for an unknown route). */
export function pathParams(entry: Pick<SeenRequest, 'operationId' | 'path'>): Record<string, string> {
  const route = entry.operationId === null ? undefined : (ROUTE_BY_ID as Readonly<Record<string, OperationRoute | undefined>>)[entry.operationId];
  const match = route === undefined ? null : matchPathTemplate(route.path, entry.path);
  if (match === null) return {};
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(match)) {
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}

/** The query parameters of an entry (the first value of each). */
export function queryParams(entry: Pick<SeenRequest, 'query'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(entry.query)) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** An entry's body as JSON, or `undefined`. */
export function parsedBody(entry: Pick<SeenRequest, 'body'>): unknown {
  if (entry.body === null || entry.body === '') return undefined;
  try {
    return JSON.parse(entry.body) as unknown;
  } catch {
    return undefined;
  }
}

/** The fields of `actual` that do not hold `expected` (a JSON subset), each named below `at`. */
export function subsetDifferences(expected: unknown, actual: unknown, at: string): Difference[] {
  if (jsonSubset(actual, expected)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(expected) || !isObject(actual)) return [{ path: at, expected, actual }];
  return Object.entries(expected).flatMap(([key, value]) => subsetDifferences(value, Object.hasOwn(actual, key) ? actual[key] : undefined, `${at}.${key}`));
}

/** Each expected string field of a record that the actual record does not have, as `at.name`. */
export function recordDifferences(expected: Readonly<Record<string, string>> | undefined, actual: Readonly<Record<string, string>>, at: string): Difference[] {
  if (!expected) return [];
  return Object.entries(expected)
    .filter(([k, v]) => actual[k] !== v)
    .map(([k, v]) => ({ path: `${at}.${k}`, expected: v, actual: Object.hasOwn(actual, k) ? actual[k] : undefined }));
}

/** A field compared when the expectation names it. */
export function fieldDifference(path: string, expected: unknown, actual: unknown): Difference[] {
  return expected === undefined || expected === actual ? [] : [{ path, expected, actual }];
}

/** The entries that could have been meant: those of the same operation, else of the same path, else every one. */
export function candidates<T extends SeenRequest>(entries: readonly T[], scope: { readonly operationId?: string; readonly path?: unknown }): readonly T[] {
  if (scope.operationId !== undefined) return entries.filter((e) => e.operationId === scope.operationId);
  if (typeof scope.path === 'string') return entries.filter((e) => e.path === scope.path);
  return entries;
}

/**
 * The entries closest to an expectation, closest first (fewest differences; the newest first among equals), at most
 * {@link NEAR_MISS_LIMIT}. `differencesOf` answers what an entry lacks; an entry it finds nothing in is left out
 * (it matched: it is no miss).
 */
export function nearMisses<T extends SeenRequest>(entries: readonly T[], differencesOf: (entry: T) => readonly Difference[]): NearMiss[] {
  const scored: NearMiss[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    const differences = differencesOf(e);
    if (differences.length === 0) continue;
    scored.push({
      requestId: e.requestId,
      operationId: e.operationId,
      method: e.method,
      path: e.path,
      query: e.query,
      status: e.status,
      at: e.at,
      differences,
    });
  }
  // A stable sort keeps the newest first among entries with as many differences.
  return scored.sort((a, b) => a.differences.length - b.differences.length).slice(0, NEAR_MISS_LIMIT);
}

/** Near misses as lines of a message: `GET /v1/x (req_1): path.id expected "itm_x", got "itm_y"`. */
export function describeNearMisses(misses: readonly NearMiss[]): string {
  if (misses.length === 0) return 'No request came close.';
  const show = (v: unknown) => (v === undefined ? '(nothing)' : JSON.stringify(v));
  return [
    'Closest requests:',
    ...misses.map((m, i) => {
      const first = m.differences.slice(0, 3).map((d) => `${d.path} expected ${show(d.expected)}, got ${show(d.actual)}`);
      const more = m.differences.length > 3 ? ` (and ${m.differences.length - 3} more)` : '';
      return `  ${i + 1}. ${m.method} ${m.path}${m.query ? `?${m.query}` : ''} (${m.requestId}, ${m.status ?? 'no answer'}): ${first.join('; ')}${more}`;
    }),
  ].join('\n');
}
