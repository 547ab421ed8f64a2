/** Edit distance between two words (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate nearest to `word` (a prefix wins first), or undefined when none is near enough to be meant. */
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  const prefixed = candidates.filter((c) => c.startsWith(word) && word.length >= 2);
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** ` Did you mean X?` when a candidate is near, else nothing. */
export function didYouMean(word: string, candidates: readonly string[], prefix = ''): string {
  const near = nearestName(word, candidates);
  return near === undefined ? '' : ` Did you mean ${prefix}${near}?`;
}
