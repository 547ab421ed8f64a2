/**
 * Bytes an answer may grow to when `oz` writes it out again (as JSON, or as YAML without anchors): a YAML
 * document's aliases are shared in memory but written in full, so 570 bytes of nested aliases can stand for
 * gigabytes. Past this, `oz` prints the answer as it came.
 */
export const MAX_EXPANDED_BYTES = 1024 * 1024;

/**
 * Whether `value` can be written out in full: a value without shared objects always can (it is as large as the
 * document it came from); one whose shared objects (YAML aliases) are written as many times as they are referred
 * to must stay within `limit` bytes (about as JSON counts them). Each object is measured once, so the check costs
 * the size of the document, not of its expansion; a cycle never fits.
 */
export function expandsWithin(value: unknown, limit: number = MAX_EXPANDED_BYTES): boolean {
  const sizes = new Map<object, number>();
  let shared = false;
  const size = (item: unknown): number => {
    if (typeof item === 'string') return item.length + 2;
    if (typeof item !== 'object' || item === null) return String(item).length;
    const known = sizes.get(item);
    if (known !== undefined) {
      shared = true;
      return known;
    }
    // While it is measured: met again below itself, it is a cycle.
    sizes.set(item, Number.POSITIVE_INFINITY);
    let total = 2;
    for (const [key, child] of Object.entries(item)) total += key.length + 4 + size(child);
    sizes.set(item, total);
    return total;
  };
  try {
    const total = size(value);
    return !shared || total <= limit;
  } catch {
    // Nested past the stack: too deep to write out again.
    return false;
  }
}
