import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Whether a presented secret is the expected one, in constant time (only digests are compared). */
export function secretsMatch(expected: string, presented: string): boolean {
  return timingSafeEqual(digest(expected), digest(presented));
}
