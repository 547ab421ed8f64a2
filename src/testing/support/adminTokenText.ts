import { replaceDecoded } from './decodedMatch.js';

/** What an admin token reads wherever the server shows a request: the journal, the live feed, `--log`, errors. */
export const ADMIN_TOKEN_REDACTED = 'ozadm_…';

// The admin token's shape (`ozadm_` and 32 letters or digits): any length, so a cut or padded one goes too.
const ADMIN_TOKEN_TEXT = /ozadm_[A-Za-z0-9]+/g;
const BASIC = /^(\s*Basic\s+)([A-Za-z0-9+/]+={0,2})\s*$/i;

/**
 * `text` with every admin token in it replaced by {@link ADMIN_TOKEN_REDACTED}, as written or URL- or
 * JSON-escaped (`ozadm%5F...`, `\u006fzadm_...`).
 */
export function redactAdminTokens(text: string): string {
  // The usual text (every request's path and query) has neither a token nor an escape.
  if (!text.includes('ozadm_') && !text.includes('%') && !text.includes('\\u')) return text;
  return replaceDecoded(text, ADMIN_TOKEN_TEXT, ADMIN_TOKEN_REDACTED);
}

/** A header's value with every admin token redacted, also inside a `Basic` credential (base64 of `user:password`). */
export function redactAdminTokenHeader(value: string): string {
  const basic = BASIC.exec(value);
  const credential = basic === null ? '' : decodeBase64(basic[2]!);
  if (redactAdminTokens(credential) !== credential) return `${basic![1]}${ADMIN_TOKEN_REDACTED}`;
  return redactAdminTokens(value);
}

function decodeBase64(text: string): string {
  try {
    return atob(text);
  } catch {
    return '';
  }
}
