import { jsonSubset } from '../support/jsonSubset.js';
import { parsedBody } from './nearMisses.js';

/** The journal filters on who sent a request and what it held (see `JournalFilter`). */
export interface JournalContentFilter {
  /** The account whose key sent the request. */
  readonly account?: string;
  /** A request header and its exact value, as `name:value` (`x-trace-id:abc`); the name is case-insensitive. */
  readonly header?: string;
  /** Fields the JSON body must hold (a subset, compared deeply). */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** What an entry is matched on. */
interface Matched {
  readonly account: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** Throws a `TypeError` naming a bad content filter. */
export function checkContentFilter(filter: JournalContentFilter): void {
  if (filter.account !== undefined && typeof filter.account !== 'string') throw new TypeError('account must be a string');
  if (filter.header !== undefined && !(typeof filter.header === 'string' && /^[^:\s]+:/.test(filter.header)))
    throw new TypeError('header must be name:value (for example x-trace-id:abc)');
  if (filter.body !== undefined && (typeof filter.body !== 'object' || filter.body === null || Array.isArray(filter.body)))
    throw new TypeError('body must be an object of fields');
}

/** Whether an entry passes the content filters (none given: it does). */
export function contentMatches(entry: Matched, filter: JournalContentFilter): boolean {
  if (filter.account !== undefined && entry.account !== filter.account) return false;
  if (filter.header !== undefined) {
    const colon = filter.header.indexOf(':');
    if (entry.headers[filter.header.slice(0, colon).trim().toLowerCase()] !== filter.header.slice(colon + 1).trim()) return false;
  }
  return filter.body === undefined || jsonSubset(parsedBody(entry), filter.body);
}
