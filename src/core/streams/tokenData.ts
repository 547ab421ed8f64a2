const PREFIX = '{"delta":"';
const QUOTE = 34;
const BACKSLASH = 92;
const CLOSE_BRACE = 125;

/**
 * The data of a `token` event when it is exactly what the service sends, `{"delta":"<text>"}` with no escape in
 * the text: the same object `JSON.parse` would give, built without it (on a fast stream, `JSON.parse` of each
 * small token was the largest cost of reading it). Undefined for anything else (escapes, other fields, spaces,
 * another order): the caller parses that as JSON.
 */
export function plainTokenData(data: string): { delta: string } | undefined {
  const end = data.length - 2;
  if (end < PREFIX.length || !data.startsWith(PREFIX) || data.charCodeAt(end) !== QUOTE || data.charCodeAt(end + 1) !== CLOSE_BRACE) return undefined;
  for (let i = PREFIX.length; i < end; i++) {
    const code = data.charCodeAt(i);
    // What a JSON string cannot hold as is: its quote, an escape, a control character.
    if (code === QUOTE || code === BACKSLASH || code < 0x20) return undefined;
  }
  return { delta: data.slice(PREFIX.length, end) };
}
