/**
 * The bytes of each item of a page's `data` as the page's JSON text has them, so that `oz --all` prints the items
 * as the service sent them (key order, spacing, `1.0`, `1e2`, `\u00e9` kept). The text was parsed already (the
 * client read the page from it), so this only finds where each item starts and ends: strings are skipped with
 * their escapes, brackets are counted. Multi-byte UTF-8 never holds a byte below 0x80, so the scan reads bytes.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const UTF8 = new TextDecoder();

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** The index after the blanks from `at` (a leading UTF-8 BOM counts as one at the start). */
function skipSpace(bytes: Uint8Array, at: number): number {
  let i = at === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : at;
  while (isSpace(bytes[i])) i++;
  return i;
}

/** The index after the string that starts at `at` (its opening quote). */
function skipString(bytes: Uint8Array, at: number): number {
  let i = at + 1;
  while (i < bytes.length && bytes[i] !== QUOTE) i += bytes[i] === BACKSLASH ? 2 : 1;
  return i + 1;
}

/** The index after the JSON value that starts at `at`; past the end when the text is cut short. */
function skipValue(bytes: Uint8Array, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return skipString(bytes, at);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let i = at;
    while (i < bytes.length && !isSpace(bytes[i]) && bytes[i] !== COMMA && bytes[i] !== CLOSE_OBJECT && bytes[i] !== CLOSE_ARRAY) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < bytes.length) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = skipString(bytes, i);
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
    i++;
  }
  return bytes.length + 1;
}

/** The items of the array that starts at `at` (its `[`), each as its bytes; undefined when the text is cut short. */
function arrayItems(bytes: Uint8Array, at: number): Uint8Array[] | undefined {
  const items: Uint8Array[] = [];
  let i = skipSpace(bytes, at + 1);
  while (i < bytes.length && bytes[i] !== CLOSE_ARRAY) {
    const end = skipValue(bytes, i);
    if (end > bytes.length) return undefined;
    items.push(bytes.subarray(i, end));
    i = skipSpace(bytes, end);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
  }
  return i < bytes.length ? items : undefined;
}

/** A key's text (`"d\u0061ta"` is `data`), or undefined when it is cut short. */
function keyOf(bytes: Uint8Array): string | undefined {
  try {
    return JSON.parse(UTF8.decode(bytes)) as string;
  } catch {
    return undefined;
  }
}

/**
 * The bytes of each item of the `data` array of the JSON object `bytes` (the last `data` key, as `JSON.parse`
 * takes it); undefined when the text is not such an object.
 */
export function pageItemBytes(bytes: Uint8Array): Uint8Array[] | undefined {
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  let items: Uint8Array[] | undefined;
  i = skipSpace(bytes, i + 1);
  while (i < bytes.length && bytes[i] === QUOTE) {
    const keyEnd = skipString(bytes, i);
    const key = keyOf(bytes.subarray(i, keyEnd));
    if (key === undefined) return undefined;
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1);
    if (key === 'data') items = bytes[i] === OPEN_ARRAY ? arrayItems(bytes, i) : undefined;
    i = skipSpace(bytes, skipValue(bytes, i));
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
  }
  return bytes[i] === CLOSE_OBJECT ? items : undefined;
}
