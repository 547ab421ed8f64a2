const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh `x-trace-id`: `exe_` and 32 random characters, the shape of the service's execution ids. */
export function newTraceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let id = 'exe_';
  // 256 % 62 leaves a slight bias; uniqueness, not uniformity, is what matters here.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
