import { OzUsageError } from './errors/errors.js';

// RFC 9110 token characters: what a header name may hold.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What no header value may hold: CR, LF, NUL (a header injection), and anything outside Latin-1 (fetch's ByteString).
const BAD_VALUE = /[\r\n\0]|[^\u0000-\u00ff]/;
// The leading and trailing whitespace fetch's `Headers` strips from a value (CR and LF are refused above).
const EDGE_SPACE = /^[\t ]+|[\t ]+$/g;

/**
 * A call's request headers as a plain object: lower-case names, values as fetch's `Headers` would hold them. Node's
 * `fetch` takes it as it is (a `Headers` would be validated and copied once more, per attempt).
 */
export type HeaderRecord = Record<string, string>;

/**
 * Sets a header of a call (`null` removes it), or throws the caller's {@link OzUsageError} naming the header and where it came from
 * (`defaultHeaders`, `headers`, `idempotencyKey`, `apiKey`) instead of the bare `TypeError` of `Headers`. The value
 * is never quoted in the message: it may be a credential. The checks are those of fetch's `Headers.set` (a name
 * that is a token, a value without CR, LF, NUL or a character outside Latin-1, its edge whitespace dropped).
 */
export function setHeader(headers: HeaderRecord, name: string, value: string | null, source: string): void {
  if (!TOKEN.test(name)) {
    throw new OzUsageError(`The header name ${JSON.stringify(name)} (from ${source}) is not a valid HTTP header name; nothing was sent.`);
  }
  const key = name.toLowerCase();
  if (value === null) {
    delete headers[key];
    return;
  }
  if (typeof value !== 'string') {
    throw new OzUsageError(`The header "${name}" (from ${source}) must be a string, not ${typeof value}; nothing was sent.`);
  }
  const bad = BAD_VALUE.exec(value);
  if (bad) {
    const what = bad[0] === '\r' || bad[0] === '\n' ? 'a line break (CR or LF)' : bad[0] === '\0' ? 'a NUL character' : `a character outside Latin-1 (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    throw new OzUsageError(`The header "${name}" (from ${source}) has a value holding ${what}, which no HTTP header may carry; nothing was sent.`);
  }
  headers[key] = value.replace(EDGE_SPACE, '');
}
