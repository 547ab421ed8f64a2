import { OPENAPI_DOCUMENT } from '../contract/operations.js';
import { isPlainObject } from '../support/plainObject.js';
import type { ParityAnswer, ReadEvent } from './exchange.js';
import { eventPairs, eventRuns } from './streamShape.js';
import { resolveRef as resolve } from '../pipeline/stubs/stubAnswerCheck.js';

/** One way the target's answer is not the reference's: where, and both values (`(absent)` for a missing one). */
export interface Difference {
  /** `status`, `headers.<name>`, `events`, or a JSON path into the body (`$.data[0].status`). */
  readonly path: string;
  readonly reference: unknown;
  readonly target: unknown;
}

/** How to compare one pair of answers. */
export interface CompareOptions {
  /** Enum values compared by form only: the resource was still changing when compared. */
  readonly settled: boolean;
  /** Elements of `data` compared by keys and types only: a list holds whatever each side has. */
  readonly list: boolean;
}

type Json = Record<string, unknown>;
const ABSENT = '(absent)';

/** Whether a schema is a closed set of values (`enum`, `const`, or a `oneOf` of consts). */
function isClosedSet(node: unknown, depth = 0): boolean {
  const s = resolve(node);
  if (!s || depth > 4) return false;
  if (Array.isArray(s.enum) || s.const !== undefined) return true;
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  return Array.isArray(branches) && branches.some((b) => isClosedSet(b, depth + 1));
}

/** The property names openapi.json gives a closed set of values anywhere (`status`, `kind`, `code`, `object` ...): compared by value. */
export const VALUE_PROPERTIES: ReadonlySet<string> = (() => {
  const names = new Set<string>(['missing']);
  const visit = (node: unknown, depth: number) => {
    if (depth > 40 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const props = (node as Json).properties;
    if (isPlainObject(props)) for (const [name, schema] of Object.entries(props)) if (isClosedSet(schema)) names.add(name);
    for (const value of Object.values(node)) visit(value, depth + 1);
  };
  visit((OPENAPI_DOCUMENT.components as Json).schemas, 0);
  return names;
})();

/** The answer headers openapi.json names: each compared by presence, or by value when its schema is a closed set. */
export const NAMED_HEADERS: ReadonlyArray<{ readonly name: string; readonly byValue: boolean }> = (() => {
  const out = new Map<string, boolean>();
  for (const item of Object.values(OPENAPI_DOCUMENT.paths as Json))
    for (const operation of Object.values(item as Json))
      for (const response of Object.values(((operation as Json).responses ?? {}) as Json))
        for (const [name, header] of Object.entries((resolve(response)?.headers ?? {}) as Json))
          out.set(name.toLowerCase(), isClosedSet(resolve(header)?.schema));
  // A suggested poll interval depends on when a run is polled, not on what the run is.
  for (const timing of ['retry-after', 'retry-after-ms']) out.delete(timing);
  return [...out].map(([name, byValue]) => ({ name, byValue }));
})();

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;
const PREFIXED_ID = /^([a-z]{2,8})_[A-Za-z0-9]{8,}$/;

/** What a value is, as compared by form: ids by their prefix, timestamps, other strings, JSON types. */
export function formOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') {
    if (RFC3339.test(value)) return 'timestamp';
    const id = PREFIXED_ID.exec(value);
    return id ? `id ${id[1]}_` : 'string';
  }
  return typeof value;
}

function compareValues(path: string, key: string | null, ref: unknown, tgt: unknown, options: CompareOptions, inList: boolean, out: Difference[]): void {
  const refForm = formOf(ref);
  const tgtForm = formOf(tgt);
  const byValue = key !== null && VALUE_PROPERTIES.has(key) && options.settled && !inList;
  if (byValue) {
    if (JSON.stringify(ref) !== JSON.stringify(tgt)) out.push({ path, reference: ref, target: tgt });
    return;
  }
  if (refForm !== tgtForm) {
    // An id the client chose (an x-trace-id become the execution id) and a made one are both ids.
    out.push({ path, reference: ref, target: tgt });
    return;
  }
  if (isPlainObject(ref) && isPlainObject(tgt)) {
    for (const k of new Set([...Object.keys(ref), ...Object.keys(tgt)])) {
      const at = /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
      if (!Object.hasOwn(tgt, k)) out.push({ path: at, reference: ref[k], target: ABSENT });
      else if (!Object.hasOwn(ref, k)) out.push({ path: at, reference: ABSENT, target: tgt[k] });
      else compareValues(at, k, ref[k], tgt[k], options, inList || (options.list && path === '$' && k === 'data'), out);
    }
    return;
  }
  // Arrays hold what each side has: their first elements are compared when both have one.
  if (Array.isArray(ref) && Array.isArray(tgt) && ref.length > 0 && tgt.length > 0) compareValues(`${path}[0]`, key, ref[0], tgt[0], options, inList, out);
}

/** The event names of a stream in order, a run of the same name once (`token` ×n is one `token`). */
export function eventSequence(events: readonly ReadEvent[]): string {
  return eventRuns(events)
    .map((run) => run.name)
    .join(' ');
}

/** Data compared by shape only (keys and the forms of values), never by value: a stream's values differ run to run. */
const SHAPE_ONLY: CompareOptions = { settled: false, list: false };

/**
 * Where the target's answer differs from the reference's, as the contract compares them: status, the named
 * headers (`X-Error-Code` by value), content type, and the body's shape (keys, types, enum and code values; ids,
 * timestamps and request ids by form). A stream: its event names in order (read by the client's SSE parser),
 * then each event's data by shape (keys and value types, not values), named by event index and path.
 */
export function compareAnswers(reference: ParityAnswer, target: ParityAnswer, options: CompareOptions): Difference[] {
  const out: Difference[] = [];
  if (reference.status !== target.status) out.push({ path: 'status', reference: reference.status, target: target.status });
  if (reference.contentType !== target.contentType)
    out.push({ path: 'headers.content-type', reference: reference.contentType || ABSENT, target: target.contentType || ABSENT });
  for (const { name, byValue } of NAMED_HEADERS) {
    const r = reference.headers.get(name);
    const t = target.headers.get(name);
    if ((r === null) !== (t === null) || (byValue && r !== t)) out.push({ path: `headers.${name}`, reference: r ?? ABSENT, target: t ?? ABSENT });
  }
  if (reference.events && target.events) {
    const r = eventSequence(reference.events);
    const t = eventSequence(target.events);
    if (r !== t) {
      out.push({ path: 'events', reference: r, target: t });
      return out;
    }
    for (const pair of eventPairs(reference.events, target.events)) compareValues(pair.at, null, pair.reference, pair.target, SHAPE_ONLY, false, out);
    return out;
  }
  if (reference.contentType !== target.contentType) return out;
  if (reference.value !== undefined || target.value !== undefined) compareValues('$', null, reference.value, target.value, options, false, out);
  else if ((reference.text === '') !== (target.text === ''))
    out.push({ path: '$', reference: reference.text === '' ? ABSENT : 'text', target: target.text === '' ? ABSENT : 'text' });
  return out;
}
