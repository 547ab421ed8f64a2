/** What an {@link SseParser} reports as it reads. */
export interface SseParserHandlers {
  /** A complete event: its type (`message` when it had none) and its data lines joined with `\n`. */
  onEvent(event: string, data: string): void;
  /** A comment line (`: ping`), without its colon. */
  onComment?(comment: string): void;
}

const LF = 10;
const COLON = 58;
const SPACE = 32;

/**
 * An incremental parser of the `text/event-stream` format (the WHATWG HTML "event stream interpretation"), fed
 * with decoded text as it arrives, cut anywhere. Lines end with CRLF, LF or CR (a CRLF split between two feeds is
 * one line end); `data` lines are joined with `\n`; `event` names the event (`message` by default); `id` sets
 * {@link SseParser.lastEventId} (kept from event to event, as the spec says; one with a NUL is ignored); `retry`
 * of digits only sets {@link SseParser.retry}; comments and unknown fields are skipped; an event without a
 * `data` line is not dispatched, nor is an unfinished one at the end. A leading BOM is the decoder's to strip.
 *
 * Written for a fast stream rather than taken from eventsource-parser: no object per event (the handler gets
 * two strings), an event name equal to the previous one is not copied again, and a line that arrives in many
 * pieces is joined once, when its end comes.
 */
export class SseParser {
  readonly #handlers: SseParserHandlers;
  // An unfinished line: the pieces of text after the last line end.
  #pending: string[] = [];
  #pendingLength = 0;
  // The last feed ended with a CR: an LF starting the next feed completes that CRLF.
  // Stryker disable next-line BooleanLiteral: equivalent (test/mutation/equivalent-mutants.md): a first feed starting with LF loses it, an empty first line that dispatches nothing when nothing is pending
  #afterCR = false;
  // Stryker disable next-line StringLiteral: equivalent: #data is only read once #dataLines is not 0, and the first data line replaces it
  #data = '';
  #dataLines = 0;
  #event = '';
  // The previous event's name, handed out again when the same name comes (the same string, not a copy).
  // Stryker disable next-line StringLiteral: equivalent: the shortcut hands out the previous name only when the line's value equals it, and an empty name is the same string
  #lastEvent = 'message';

  /** The last event ID the stream set (`id:` lines), as the spec keeps it: it is not reset by each event. */
  lastEventId = '';
  /** The reconnection time the stream asked for (`retry:` of digits only), in milliseconds; undefined if none. */
  retry: number | undefined;

  constructor(handlers: SseParserHandlers) {
    this.#handlers = handlers;
  }

  /** Characters received after the last line end (an unfinished line). */
  get pendingLength(): number {
    return this.#pendingLength;
  }

  /** Reads `chunk`: every line it completes is interpreted now; the rest waits for the next feed. */
  feed(chunk: string): void {
    if (chunk === '') return;
    let start = 0;
    if (this.#afterCR) {
      this.#afterCR = false;
      if (chunk.charCodeAt(0) === LF) start = 1;
    }
    let lf = chunk.indexOf('\n', start);
    let cr = chunk.indexOf('\r', start);
    // Stryker disable next-line BlockStatement: equivalent: the general path joins the pending pieces and keeps the text as the one pending piece, the same line once its end comes
    if (lf === -1 && cr === -1) {
      // No line ends here: keep the piece, join the line once its end comes.
      const piece = start === 0 ? chunk : chunk.slice(start);
      // Stryker disable next-line StringLiteral: equivalent: the piece is never empty (an empty chunk returned before, a chunk with only an LF has a line end)
      if (piece !== '') {
        this.#pending.push(piece);
        this.#pendingLength += piece.length;
      }
      return;
    }
    let text = chunk;
    if (this.#pendingLength > 0) {
      const head = this.#pending.join('');
      // start is 1 only after a CR ended the feed before, and then nothing was kept pending: here it is always 0.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: equivalent: start is always 0 in this block
      text = head + (start === 0 ? chunk : chunk.slice(start));
      this.#pending = [];
      this.#pendingLength = 0;
      lf = lf === -1 ? -1 : lf - start + head.length;
      cr = cr === -1 ? -1 : cr - start + head.length;
      start = 0;
    }
    if (cr === -1) this.#linesLF(text, start, lf);
    else this.#lines(text, start, lf, cr);
  }

  /** Forgets an unfinished line and event (the spec discards them at the end of the stream). */
  reset(): void {
    this.#pending = [];
    this.#pendingLength = 0;
    // Stryker disable next-line BooleanLiteral: equivalent: after reset nothing is pending, so an LF skipped at the next feed is an empty line that would have dispatched nothing
    this.#afterCR = false;
    // Stryker disable next-line StringLiteral: equivalent: #data is only read once #dataLines is not 0, and the first data line replaces it
    this.#data = '';
    this.#dataLines = 0;
    this.#event = '';
  }

  // The usual text: lines end with LF only.
  #linesLF(text: string, start: number, lf: number): void {
    while (lf !== -1) {
      this.#line(text, start, lf);
      start = lf + 1;
      lf = text.indexOf('\n', start);
    }
    this.#keep(text, start);
  }

  // Text with a CR somewhere: lines end with CRLF, LF or CR.
  #lines(text: string, start: number, lf: number, cr: number): void {
    for (;;) {
      // Stryker disable next-line LogicalOperator: equivalent: it only searches for the next LF again from start, which finds the same one
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      // Stryker disable next-line LogicalOperator: equivalent: it only searches for the next CR again from start, which finds the same one
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        this.#line(text, start, lf);
        start = lf + 1;
        continue;
      }
      this.#line(text, start, cr);
      start = cr + 1;
      if (start === text.length) {
        this.#afterCR = true;
        break;
      }
      if (text.charCodeAt(start) === LF) start++;
    }
    this.#keep(text, start);
  }

  #keep(text: string, start: number): void {
    if (start >= text.length) return;
    const rest = text.slice(start);
    this.#pending.push(rest);
    this.#pendingLength = rest.length;
  }

  /** One line, `text[start, end)`, without its line end. */
  #line(text: string, start: number, end: number): void {
    if (start === end) return this.#dispatch();
    const first = text.charCodeAt(start);
    // `data:` and `event:` first: nearly every line is one of them.
    // Stryker disable next-line BlockStatement: equivalent: without the data: fast path the switch reads the field data with the same value start
    if (first === 100 && isData(text, start)) {
      this.#appendData(text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      return;
    }
    if (first === 101 && isEvent(text, start)) {
      this.#setEvent(text, text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
      return;
    }
    if (first === COLON) {
      this.#handlers.onComment?.(text.slice(text.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end));
      return;
    }
    let colon = text.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    const field = text.slice(start, colon);
    const valueStart = colon === end ? end : text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    switch (field) {
      case 'data':
        this.#appendData(text.slice(valueStart, end));
        return;
      case 'event':
        this.#setEvent(text, valueStart, end);
        return;
      case 'id': {
        const id = text.slice(valueStart, end);
        if (!id.includes('\0')) this.lastEventId = id;
        return;
      }
      case 'retry': {
        const retry = text.slice(valueStart, end);
        if (/^[0-9]+$/.test(retry)) this.retry = Number(retry);
        return;
      }
      // Stryker disable next-line ConditionalExpression: equivalent: the switch ends there, the unknown field is ignored all the same
      default:
        // Unknown fields are ignored.
        return;
    }
  }

  #appendData(value: string): void {
    this.#data = this.#dataLines === 0 ? value : `${this.#data}\n${value}`;
    // Stryker disable next-line UpdateOperator: equivalent: the count is only compared with 0, and it leaves 0 at the first data line either way
    this.#dataLines++;
  }

  #setEvent(text: string, start: number, end: number): void {
    const last = this.#lastEvent;
    // Stryker disable next-line ArithmeticOperator: equivalent: the name is then copied from the line, the same string value
    this.#event = end - start === last.length && text.startsWith(last, start) ? last : text.slice(start, end);
  }

  #dispatch(): void {
    const lines = this.#dataLines;
    const data = this.#data;
    const event = this.#event === '' ? 'message' : this.#event;
    // Stryker disable next-line StringLiteral: equivalent: #data is only read once #dataLines is not 0, and the first data line replaces it
    this.#data = '';
    this.#dataLines = 0;
    this.#event = '';
    if (lines === 0) return;
    this.#lastEvent = event;
    this.#handlers.onEvent(event, data);
  }
}

// The character before a line is a line end, never a letter of the field name: a mutant that reads it, or that
// answers false (undefined), only sends the line to the general path, which reads the same field.
// Stryker disable next-line BlockStatement: equivalent: isData undefined, the switch reads the line
function isData(text: string, i: number): boolean {
  return (
    // Stryker disable next-line ArithmeticOperator: equivalent: text[i - 1] is a line end, never a
    text.charCodeAt(i + 1) === 97 && text.charCodeAt(i + 2) === 116 && text.charCodeAt(i + 3) === 97 && text.charCodeAt(i + 4) === COLON
  );
}

function isEvent(text: string, i: number): boolean {
  return (
    // Stryker disable next-line ArithmeticOperator: equivalent: text[i - 1] is a line end, never v
    text.charCodeAt(i + 1) === 118 &&
    text.charCodeAt(i + 2) === 101 &&
    text.charCodeAt(i + 3) === 110 &&
    text.charCodeAt(i + 4) === 116 &&
    text.charCodeAt(i + 5) === COLON
  );
}
