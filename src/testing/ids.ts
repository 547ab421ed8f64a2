import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// One refill of random bytes serves many ids: a syscall per id would show on the hot path.
const pool = new Uint8Array(4096);
let offset = pool.length;

/** `length` random characters of [A-Za-z0-9]. */
export function randomAlnum(length: number): string {
  let out = '';
  while (out.length < length) {
    if (offset >= pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const byte = pool[offset++]!;
    // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** The id prefixes of contract.md, plus `spn_` for trace spans. */
export type IdPrefix = 'itm' | 'exe' | 'wfl' | 'tsk' | 'sch' | 'req' | 'key' | 'spn';

/** A prefixed random id, for example `itm_3fZ09qLw1m2K8sTt0aBcDe9X`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomAlnum(24)}`;
}
