import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../src/core/streams/sseParser.js';
import { SseReader, type SseEvent } from '../../../src/core/streams/sseReader.js';
import { splitAt, utf8 } from '../support/sse.js';

interface Dispatched {
  event: string;
  data: string;
  id: string;
}

/**
 * The WHATWG "event stream interpretation" read literally, on the whole text at once (no BOM: that is the
 * decoder's): the oracle the incremental parser is held to.
 */
function interpret(text: string): { events: Dispatched[]; comments: string[]; retry: number | undefined } {
  const events: Dispatched[] = [];
  const comments: string[] = [];
  let data = '';
  let event = '';
  let lastEventId = '';
  let retry: number | undefined;
  const lines = text.split(/\r\n|\r|\n/);
  // What follows the last line end is unfinished: the spec discards it at the end of the stream.
  lines.pop();
  for (const line of lines) {
    if (line === '') {
      if (data !== '') events.push({ event: event === '' ? 'message' : event, data: data.slice(0, -1), id: lastEventId });
      data = '';
      event = '';
      continue;
    }
    if (line.startsWith(':')) {
      comments.push(line.slice(1).replace(/^ /, ''));
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data += `${value}\n`;
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) retry = Number(value);
  }
  return { events, comments, retry };
}

/** Feeds `pieces` to a new parser: what it dispatched, with the last event ID at each event. */
function parse(pieces: readonly string[]): { events: Dispatched[]; comments: string[]; retry: number | undefined } {
  const events: Dispatched[] = [];
  const comments: string[] = [];
  const parser: SseParser = new SseParser({
    onEvent: (event, data) => events.push({ event, data, id: parser.lastEventId }),
    onComment: (comment) => comments.push(comment),
  });
  for (const piece of pieces) parser.feed(piece);
  return { events, comments, retry: parser.retry };
}

/** `whole` cut at offsets anywhere in it (fast-check's numbers brought into range). */
const cutAt = <T extends string | Uint8Array>(whole: T, cuts: readonly number[]): T[] =>
  splitAt(
    whole,
    cuts.map((c) => c % (whole.length + 1)),
  );

/** The events an {@link SseReader} reads from these byte chunks, to the end of the body. */
async function readAll(chunks: readonly Uint8Array[]): Promise<SseEvent[]> {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
  const reader = new SseReader(body, { idleTimeoutMs: Infinity, maxEventBytes: Infinity });
  const events: SseEvent[] = [];
  for (;;) {
    const read = await reader.next();
    if (read.kind !== 'event') {
      expect(read.kind).toBe('end');
      return events;
    }
    events.push(read.message);
  }
}

// Text that a field's value may hold: ASCII, colons and leading spaces, multi-byte and astral characters, NUL.
const valueText = fc.string({
  unit: fc.constantFrom('a', 'z', ' ', ':', '{', '"', 'é', '€', '😀', '\0', '1', '7'),
  maxLength: 12,
});
const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
const fieldLine = fc.oneof(
  valueText.map((v) => `data:${v}`),
  valueText.map((v) => `data: ${v}`),
  fc.constant('data'),
  valueText.map((v) => `event: ${v}`),
  fc.constantFrom('event:token', 'event: token', 'event: result', 'event:'),
  valueText.map((v) => `id: ${v}`),
  fc.constant('id'),
  fc.constantFrom('retry: 3000', 'retry:15', 'retry: 1.5', 'retry: x'),
  valueText.map((v) => `:${v}`),
  valueText.map((v) => `: ${v}`),
  valueText.map((v) => `unknown: ${v}`),
  fc.constantFrom('dat: x', 'Data: x', 'event', ' data: x'),
);
// A stream: lines with their ends (an empty line dispatches), and maybe an unfinished line at the end.
const streamText = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fieldLine }, { weight: 1, arbitrary: fc.constant('') }), lineEnd), { maxLength: 40 }),
    fc.option(fieldLine, { nil: undefined }),
  )
  .map(([lines, tail]) => lines.map(([line, end]) => line + end).join('') + (tail ?? ''));
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('SseParser against the SSE spec', () => {
  it('dispatches what the spec says, however the text is cut (inside a CRLF, between a CR and its LF)', () => {
    fc.assert(
      fc.property(streamText, cuts, (text, at) => {
        expect(parse(cutAt(text, at))).toEqual(interpret(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads the bytes the same however they are cut (inside a multi-byte character or a CRLF), after a BOM', async () => {
    await fc.assert(
      fc.asyncProperty(streamText, cuts, fc.boolean(), async (text, at, bom) => {
        const bytes = utf8((bom ? '\uFEFF' : '') + text);
        const read = await readAll(cutAt(bytes, at));
        expect(read).toEqual(interpret(text).events.map(({ event, data }) => ({ event, data })));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same events and data as eventsource-parser', () => {
    fc.assert(
      // A CR ending the text completes its line, but eventsource-parser waits to see whether an LF follows: a
      // last line (a comment) lets it decide.
      fc.property(
        streamText.map((text) => `${text}:\n`),
        cuts,
        (text, at) => {
          const theirs: { event: string; data: string }[] = [];
          const parser = createParser({ onEvent: (message) => theirs.push({ event: message.event ?? 'message', data: message.data }) });
          for (const piece of cutAt(text, at)) parser.feed(piece);
          expect(parse(cutAt(text, at)).events.map(({ event, data }) => ({ event, data }))).toEqual(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads the spec's examples", () => {
    expect(parse(['data: YHOO\ndata: +2\ndata: 10\n\n']).events).toEqual([{ event: 'message', data: 'YHOO\n+2\n10', id: '' }]);
    // A comment, an id kept across events, one reset by an empty `id`.
    expect(parse([': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n']).events).toEqual([
      { event: 'message', data: 'first event', id: '1' },
      { event: 'message', data: 'second event', id: '' },
      { event: 'message', data: ' third event', id: '' },
    ]);
    // An empty data line dispatches an empty event; two give one line break; an unfinished event is dropped.
    expect(parse(['data\n\ndata\ndata\n\ndata:']).events.map((e) => e.data)).toEqual(['', '\n']);
    expect(parse(['data:test\n\ndata: test\n\n']).events.map((e) => e.data)).toEqual(['test', 'test']);
  });

  it('keeps the last event id across events and ignores one with a NUL; retry takes digits only', () => {
    const { events, retry } = parse(['id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nretry: 2500\nretry: 1e3\n']);
    expect(events.map((e) => e.id)).toEqual(['7', '7', '7']);
    expect(retry).toBe(2500);
  });

  it('hands out the same string for an event name that repeats, and a new one when it changes', () => {
    const names: string[] = [];
    const parser = new SseParser({ onEvent: (event) => names.push(event) });
    parser.feed('event: token\ndata: 1\n\nevent: tok');
    parser.feed('en\ndata: 2\n\nevent: tokens\ndata: 3\n\nevent: toke\ndata: 4\n\ndata: 5\n\n');
    expect(names).toEqual(['token', 'token', 'tokens', 'toke', 'message']);
  });

  it('counts the unfinished line, joined once its end comes; reset() forgets it and the event', () => {
    const data: string[] = [];
    const parser = new SseParser({ onEvent: (_, d) => data.push(d) });
    parser.feed('data: {"a"');
    parser.feed(':1');
    expect(parser.pendingLength).toBe(12);
    parser.feed('}\n\ndata: x\r');
    expect(parser.pendingLength).toBe(0);
    parser.feed('\n\ndata: dropped\ndata: un');
    expect(data).toEqual(['{"a":1}', 'x']);
    parser.reset();
    parser.feed('finished\n\n');
    expect(data).toEqual(['{"a":1}', 'x']);
    expect(parser.pendingLength).toBe(0);
  });

  // The parser tells `data:` and `event:` apart by their characters before it reads a field name (a fast path):
  // a field one character off is an unknown field, whatever the line before it ends with.
  it.each(['dxta', 'daxa', 'datx', 'datax', 'Data', 'xata'])('ignores the unknown field %s, one character off data', (field) => {
    const text = `data: p:at\n${field}: v\n\n`;
    expect(parse([text]).events).toEqual([{ event: 'message', data: 'p:at', id: '' }]);
    expect(parse([...text]).events).toEqual(interpret(text).events);
  });

  it.each(['Event', 'xvent', 'exent', 'evxnt', 'evext', 'evenx', 'eventx'])('ignores the unknown field %s, one character off event', (field) => {
    const text = `data: p:tne\n${field}: v\n\n`;
    expect(parse([text]).events).toEqual([{ event: 'message', data: 'p:tne', id: '' }]);
    expect(parse([...text]).events).toEqual(interpret(text).events);
  });

  it('an event name is the one its line gives, even where the text before it ends with the previous name', () => {
    const names: string[] = [];
    const parser = new SseParser({ onEvent: (event) => names.push(event) });
    parser.feed('event:t:\ndata: 1\n\nevent:zz\ndata: 2\n\n');
    expect(names).toEqual(['t:', 'zz']);
  });

  it('an empty feed between a CR and its LF leaves them one line end', () => {
    const events: string[] = [];
    const parser = new SseParser({ onEvent: (_, data) => events.push(data) });
    parser.feed('data: a\r');
    parser.feed('');
    parser.feed('\ndata: b\n\n');
    expect(events).toEqual(['a\nb']);
  });

  it('after reset() reads on as a new parser: no event name, no piece of line left', () => {
    const events: [string, string][] = [];
    const parser = new SseParser({ onEvent: (event, data) => events.push([event, data]) });
    parser.feed('event: gone\ndata: gone\ndata: ha');
    parser.reset();
    parser.feed('data: ke');
    parser.feed('pt\n\n');
    expect(events).toEqual([['message', 'kept']]);
  });
});
