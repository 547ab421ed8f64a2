/** What a secret is replaced with in a log line or an error. */
export const REDACTED = '[redacted]';

/** `text` with every occurrence of each secret replaced by {@link REDACTED}. */
export function scrubText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) if (secret) text = text.split(secret).join(REDACTED);
  return text;
}
