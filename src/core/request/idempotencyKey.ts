const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// One `getRandomValues` serves 128 ids: a call per id (a system call) showed as a tenth of a call's client time.
const pool = new Uint8Array(32 * 128);
let offset = pool.length;

/** A fresh idempotency key (sent as `x-trace-id`): `exe_` and 32 random characters, the shape of the service's execution ids (a run takes it as its id). */
export function newIdempotencyKey(): string {
  if (offset + 32 > pool.length) {
    crypto.getRandomValues(pool);
    offset = 0;
  }
  let id = 'exe_';
  // 256 % 62 leaves a slight bias; uniqueness, not uniformity, is what matters here.
  for (let i = offset; i < offset + 32; i++) id += ALPHABET[pool[i]! % ALPHABET.length];
  offset += 32;
  return id;
}
