/** A 32-bit seeded generator (mulberry32): the same seed gives the same numbers on every runtime. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A standard normal number from two draws of `random` (Box-Muller): the lognormal latency of a chaos rule is
 * drawn from the rule's own seeded generator, so the same seed gives the same delays.
 */
export function normalDraw(random: () => number): number {
  // 1 - u is in (0, 1]: its logarithm is finite.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
