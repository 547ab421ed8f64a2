import { replaceDecoded } from '../support/decodedMatch.js';

/** What a recorded credential reads in every file the recorder writes and in the journal's HAR. */
export const REDACTED = '<redacted>';

/** The headers that carry a key or a token: their values are never written. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'set-cookie']);

// Every credential shape the server knows: platform and legacy keys, and the admin token.
const CREDENTIAL_SHAPE = /(?:ozk_|sk-mdl-|sk-prx-|ozadm_)[A-Za-z0-9]+/g;

/** The secret values of a request's credential headers (`Bearer ` taken off), to be scrubbed from what is written. */
export function credentialValues(headers: Iterable<readonly [string, string]>): string[] {
  const out: string[] = [];
  for (const [name, value] of headers) {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
    const bare = value.replace(/^\s*(?:Bearer|Basic|Token)\s+/i, '').trim();
    if (bare.length >= 4) out.push(bare);
  }
  return out;
}

/**
 * Text with every known secret value and every credential shape replaced by {@link REDACTED}, as written or URL-
 * or JSON-escaped: the one redaction of the recorder and of the journal's HAR.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return replaceDecoded(out, CREDENTIAL_SHAPE, REDACTED);
}

/** Headers as HAR lists them, credential headers reading {@link REDACTED} and any other value redacted as text. */
export function redactHeaders(headers: Iterable<readonly [string, string]>, secrets: readonly string[] = []): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const [name, value] of headers) out.push({ name, value: CREDENTIAL_HEADERS.has(name.toLowerCase()) ? REDACTED : redactText(value, secrets) });
  return out;
}
