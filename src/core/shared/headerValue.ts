import { UsageProblem } from './usageProblem.js';

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
 * Sets a header of a call (`null` removes it), or throws the {@link UsageProblem} (the caller's `OzUsageError` once
 * the transport has it) naming the header and where it came from (`defaultHeaders`, `headers`, `idempotencyKey`,
 * `apiKey`) instead of the bare `TypeError` of `Headers`. The value is never quoted in the message: it may be a
 * credential. The checks are those of fetch's `Headers.set` (a name
 * that is a token, a value without CR, LF, NUL or a character outside Latin-1, its edge whitespace dropped).
 */
export function setHeader(headers: HeaderRecord, name: string, value: string | null, source: string): void {
  if (!TOKEN.test(name)) throw new UsageProblem('headerName', name, source);
  const key = name.toLowerCase();
  if (value === null) {
    delete headers[key];
    return;
  }
  if (typeof value !== 'string') throw new UsageProblem('headerType', name, source, typeof value);
  const bad = BAD_VALUE.exec(value);
  if (bad) throw new UsageProblem('headerValue', name, source, bad[0]);
  headers[key] = value.replace(EDGE_SPACE, '');
}
