import { invalidParams } from './errors.js';

// Node's own rules (`http.validateHeaderName`, `validateHeaderValue`): a name is an RFC 9110 token; a value holds
// tab, visible ASCII and Latin-1 only (no CR, LF, NUL, nothing past U+00FF).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Headers the server frames an answer with: a given one would contradict the body the server sends. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set(['transfer-encoding', 'content-length', 'connection']);

/**
 * Checks headers a caller gives for an answer (a stub's): each name and value must be one Node sends, and none
 * may be a framing header (`transfer-encoding`, `content-length`, `connection`). Else 422 `invalid_params`
 * naming the header under `at` (`answer.headers.x-bad`).
 */
export function checkAnswerHeaders(headers: Readonly<Record<string, string>> | undefined, at: string): void {
  if (headers === undefined) return;
  for (const [name, value] of Object.entries(headers)) {
    const where = `${at}.${JSON.stringify(name).slice(1, -1)}`;
    if (!HEADER_NAME.test(name)) throw invalidParams(`${where}: a header name is letters, digits and !#$%&'*+-.^_\`|~ only.`);
    if (FRAMING_HEADERS.has(name.toLowerCase())) throw invalidParams(`${where}: the server frames the answer itself; ${name} cannot be given.`);
    const bad = BAD_VALUE_CHAR.exec(value);
    if (bad)
      throw invalidParams(
        `${where}: the value holds U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which a header cannot carry (no CR, LF, NUL or other control, nothing past U+00FF).`,
      );
  }
}
