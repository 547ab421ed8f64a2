import type { Operation, RequestInput } from '../shared/operation.js';
import type { Format, QueryParams } from '../shared/requestOptions.js';
import { UsageProblem } from '../shared/usageProblem.js';
import { encodedPathParameter } from './pathSegment.js';
import { setQueryValue } from '../shared/queryValue.js';

// Normalized URLs of calls without a query, by the raw URL they are parsed from (parsing showed as a twentieth of
// a call's client time). Bounded: cleared when full, so paths holding ids cannot grow it without limit.
const URL_CACHE = new Map<string, string>();
const URL_CACHE_SIZE = 256;

const QUERY_SOURCES = ['defaultQuery', 'options.query', "the operation's parameters"] as const;

/**
 * A call's URL: the base URL, the operation's path with its parameters (or the input's own `url`), then the
 * client's default query, the call's, the operation's own parameters (a list's cursor) and `?format=`.
 */
export function callURL(
  baseURL: string,
  op: Operation,
  input: RequestInput,
  format: Format | undefined,
  defaultQuery: QueryParams | undefined,
  callQuery: QueryParams | undefined,
): string {
  if (input.url === undefined && format === undefined && !hasQuery(input.query) && defaultQuery === undefined && callQuery === undefined) {
    const raw = withoutTrailingSlash(baseURL) + pathOf(op, input);
    let href = URL_CACHE.get(raw);
    if (href === undefined) {
      href = new URL(raw).toString();
      if (URL_CACHE.size >= URL_CACHE_SIZE) URL_CACHE.clear();
      URL_CACHE.set(raw, href);
    }
    return href;
  }
  const url = input.url === undefined ? new URL(withoutTrailingSlash(baseURL) + pathOf(op, input)) : new URL(input.url);
  const sources = [defaultQuery, callQuery, input.query];
  for (let i = 0; i < sources.length; i++) {
    for (const [name, value] of Object.entries(sources[i] ?? {})) setQueryValue(url.searchParams, name, value, QUERY_SOURCES[i]!);
  }
  if (format) url.searchParams.set('format', format);
  return url.toString();
}

/** The base URL without its trailing slashes (a regex run only when there is one). */
function withoutTrailingSlash(baseURL: string): string {
  return baseURL.endsWith('/') ? baseURL.replace(/\/+$/, '') : baseURL;
}

function hasQuery(query: RequestInput['query']): boolean {
  return query !== undefined && Object.values(query).some((value) => value !== undefined && value !== null);
}

// Each operation's path template split once: literal text at even indexes, parameter names at odd ones.
const TEMPLATES = new WeakMap<Operation, readonly string[]>();

function pathOf(op: Operation, input: RequestInput): string {
  let parts = TEMPLATES.get(op);
  if (parts === undefined) {
    parts = op.path.split(/\{([^}]+)\}/);
    TEMPLATES.set(op, parts);
  }
  let path = parts[0]!;
  let query = '';
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = input.path?.[name];
    if (value === undefined || value === '') throw new UsageProblem('missingPathParameter', op, name, false);
    if (op.slashParams?.includes(name)) {
      // A passed-through path keeps its `/` and may carry a query string: `contacts/42?x=1` sends `?x=1` upstream
      // (the `query` option adds to it) rather than an encoded `%3F` no upstream would read as a query.
      const mark = value.indexOf('?');
      const upstream = mark === -1 ? value : value.slice(0, mark);
      if (upstream === '') throw new UsageProblem('missingPathParameter', op, name, true);
      if (mark !== -1 && value.length > mark + 1) query = value.slice(mark);
      path += encodedPathParameter(op, name, upstream, true) + parts[i + 1]!;
    } else {
      path += encodedPathParameter(op, name, value, false) + parts[i + 1]!;
    }
  }
  return path + query;
}
