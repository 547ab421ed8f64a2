import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// One refill of random bytes serves many ids: a syscall per id would show on the hot path.
const pool = new Uint8Array(4096);
let offset = pool.length;

// The character codes of ALPHABET, four times over: a byte below 248 picks one directly.
const CODES = Array.from({ length: 248 }, (_, i) => ALPHABET.charCodeAt(i % 62));

/** Fills `codes` from index `from` on with random characters of [A-Za-z0-9] (their codes). */
function fillRandom(codes: number[], from: number): void {
  for (let i = from; i < codes.length;) {
    if (offset >= pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const byte = pool[offset++]!;
    // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
    if (byte < 248) codes[i++] = CODES[byte]!;
  }
}

/** `length` random characters of [A-Za-z0-9]. */
export function randomAlnum(length: number): string {
  const codes = new Array<number>(length);
  fillRandom(codes, 0);
  return String.fromCharCode.apply(null, codes);
}

/** The id prefixes of the service's contract, plus `spn_` for trace spans. */
export type IdPrefix = 'itm' | 'exe' | 'wfl' | 'tsk' | 'sch' | 'req' | 'key' | 'spn';

/** Each prefix's codes and the `_`, then room for the 24 random characters (one flat string per id, made at once). */
const ID_CODES = new Map<string, number[]>();

/** A prefixed random id, for example `itm_3fZ09qLw1m2K8sTt0aBcDe9X`. */
export function newId(prefix: IdPrefix): string {
  let codes = ID_CODES.get(prefix);
  if (!codes) {
    codes = [...`${prefix}_`].map((c) => c.charCodeAt(0));
    codes.length += 24;
    ID_CODES.set(prefix, codes);
  }
  fillRandom(codes, prefix.length + 1);
  return String.fromCharCode.apply(null, codes);
}
