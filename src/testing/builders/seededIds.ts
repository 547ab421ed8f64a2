import { seededRandom } from '../support/seededRandom.js';

/** The generator the ids draw from (the one of `support/`, where chaos rules draw too). */
export { seededRandom };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A bijection of 32-bit integers: distinct inputs give distinct outputs, so ids made from a counter never repeat. */
function scramble(n: number): number {
  let x = n >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The ids of one builder set: `prefix` then 24 characters of [A-Za-z0-9]. The first six encode the set's counter
 * through a bijection (unique for 2^32 ids, whatever the prefix), the rest come from the seeded generator.
 */
export function seededIds(seed: number): (prefix: string) => string {
  const random = seededRandom(seed);
  const offset = scramble(seed ^ 0x9e3779b9);
  let counter = 0;
  return (prefix) => {
    let n = scramble((counter++ + offset) >>> 0);
    let id = prefix;
    for (let i = 0; i < 6; i++, n = Math.floor(n / 62)) id += ALPHABET[n % 62];
    for (let i = 0; i < 18; i++) id += ALPHABET[Math.floor(random() * 62)];
    return id;
  };
}
