import { isYamlType, mediaType } from '../wire/wire.js';
import { parseYaml } from '../wire/yamlWire.js';
import type { RecordedEvent } from './eventTimeline.js';
import type { Har, HarEntry } from './har.js';
import { matchOperation } from './operationMatch.js';

/** A stub as `POST /_oz/stubs` takes it and `stubs.json` holds it (plain JSON). */
export interface StubDocument {
  readonly operationId: string;
  readonly match: {
    readonly path?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, string>>;
    readonly body?: Readonly<Record<string, unknown>>;
  };
  readonly answer: {
    readonly status: number;
    readonly body?: unknown;
    /** A markdown or text answer's bytes as they came (with `contentType`). */
    readonly text?: string;
    readonly contentType?: string;
    readonly events?: readonly RecordedStubEvent[];
    readonly cut?: { readonly afterEvents: number };
    readonly headers?: Readonly<Record<string, string>>;
  };
  readonly times?: number;
  readonly unchecked?: boolean;
}

/** One event of a recorded stream as a stub replays it (see `StubEvent`). */
export interface RecordedStubEvent {
  readonly event?: string;
  readonly data: unknown;
  readonly delayMs?: number;
}

/** A HAR entry that gives no stub, and why. */
export interface LeftOutEntry {
  /** Its index in `log.entries`. */
  readonly entry: number;
  readonly why: string;
}

/** Answer headers a replay needs (the poll interval); the others are the server's to set. */
const KEPT_HEADERS: ReadonlySet<string> = new Set(['retry-after', 'retry-after-ms']);

interface Candidate {
  readonly key: string;
  readonly weight: number;
  readonly stub: StubDocument;
}

function header(entry: HarEntry['request'] | HarEntry['response'], name: string): string | null {
  return entry.headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;
}

/** The media types whose answers replay as they came (`text` stubs): the markdown and text wires. */
const AS_IT_CAME: ReadonlySet<string> = new Set(['text/markdown', 'text/plain']);

/** The body of a recorded text on its wire (JSON or YAML), or a reason it cannot be a stub's body. */
function parsedBody(text: string, type: string | null): { value: unknown } | { why: string } {
  const media = mediaType(type);
  try {
    if (media === 'application/json' || media.endsWith('+json')) return { value: JSON.parse(text) };
    if (isYamlType(type)) return { value: parseYaml(text, 'refuse', 'The recorded body') };
  } catch (err) {
    return { why: `its body does not parse as ${media}: ${(err as Error).message}` };
  }
  return { why: `a ${media || 'untyped'} answer (a stub answers JSON, rendered on the negotiated wire)` };
}

/** The events of a recorded stream as a stub's `events` (a cut one with its `cut`); a chat stream's `[DONE]` is the server's. */
function streamedAnswer(recorded: readonly RecordedEvent[], comment: string | undefined): Pick<StubDocument['answer'], 'events' | 'cut'> {
  const events = recorded
    .filter((e) => !(e.event === 'message' && e.data === '[DONE]'))
    .map((e): RecordedStubEvent => ({
      ...(e.event === 'message' ? {} : { event: e.event }),
      data: jsonOrText(e.data),
      ...(e.delayMs > 0 ? { delayMs: e.delayMs } : {}),
    }));
  const cutShort = comment !== undefined && /before (its|the answer's) end|broke off/.test(comment);
  return { events, ...(cutShort ? { cut: { afterEvents: events.length } } : {}) };
}

function jsonOrText(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

function candidate(entry: HarEntry): Candidate | { why: string } {
  const { request, response } = entry;
  if (response.status === 0) return { why: 'no answer came' };
  const url = new URL(request.url);
  const matched = matchOperation(request.method, url.pathname);
  const operationId = entry._operationId ?? matched?.op.id ?? null;
  if (operationId === null || matched === null) return { why: `${request.method} ${url.pathname} is no operation of openapi.json` };
  const type = header(response, 'content-type');
  const streamed = mediaType(type) === 'text/event-stream';
  if (streamed && !response._events) return { why: 'a streamed answer whose events were recorded in part only' };
  if (!streamed && response.content.text !== undefined && response.content.size > new TextEncoder().encode(response.content.text).length)
    return { why: 'its body was recorded in part only' };
  let body: unknown;
  const asItCame = !streamed && response.content.text !== undefined && type !== null && AS_IT_CAME.has(mediaType(type));
  if (!streamed && !asItCame && response.content.text !== undefined && response.content.text !== '') {
    const parsed = parsedBody(response.content.text, type);
    if ('why' in parsed) return parsed;
    body = parsed.value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!Object.hasOwn(query, k)) query[k] = v;
  const headers: Record<string, string> = {};
  for (const h of response.headers) if (KEPT_HEADERS.has(h.name.toLowerCase())) headers[h.name.toLowerCase()] = h.value;
  // A recording matches by path and query: a replayed call need not send the very body it was recorded with.
  const match = {
    ...(Object.keys(matched.path).length ? { path: matched.path } : {}),
    ...(Object.keys(query).length ? { query } : {}),
  };
  const answered = streamed
    ? streamedAnswer(response._events!, entry.comment)
    : asItCame
      ? { text: response.content.text!, contentType: type! }
      : body !== undefined
        ? { body }
        : {};
  const stub: StubDocument = {
    operationId,
    match,
    answer: { status: response.status, ...answered, ...(Object.keys(headers).length ? { headers } : {}) },
  };
  const weight = Object.keys(matched.path).length + Object.keys(query).length;
  return { key: JSON.stringify([operationId, match]), weight, stub };
}

/**
 * The stubs that replay a recording: one per recorded exchange, in the order `POST /_oz/stubs` should add them
 * (`entries[i]`: the HAR entry stub `i` came from).
 * Exchanges of one request (a run polled until it finished) answer in the recorded order, the last one from then
 * on; a request that narrower stubs match goes to the narrowest (they are added last: the newest stub answers).
 */
export function stubsFromHar(har: Har): { stubs: StubDocument[]; entries: number[]; leftOut: LeftOutEntry[] } {
  const groups = new Map<string, { weight: number; stubs: Array<{ stub: StubDocument; entry: number }> }>();
  const leftOut: LeftOutEntry[] = [];
  har.log.entries.forEach((entry, i) => {
    const c = candidate(entry);
    if ('why' in c) {
      leftOut.push({ entry: i, why: c.why });
      return;
    }
    const group = groups.get(c.key) ?? { weight: c.weight, stubs: [] };
    group.stubs.push({ stub: c.stub, entry: i });
    groups.set(c.key, group);
  });
  const ordered = [...groups.values()]
    .sort((a, b) => a.weight - b.weight)
    .flatMap(({ stubs: recorded }) => {
      const last = recorded[recorded.length - 1]!;
      return [
        last,
        ...recorded
          .slice(0, -1)
          .reverse()
          .map((s) => ({ stub: { ...s.stub, times: 1 }, entry: s.entry })),
      ];
    });
  return { stubs: ordered.map((s) => s.stub), entries: ordered.map((s) => s.entry), leftOut };
}
