import { UsageProblem } from '../shared/usageProblem.js';
import type { Operation } from '../shared/operation.js';

// `%2e` in any case, and `%25` (an encoded `%`) so that `%252e` (decoded twice by some upstream) is caught too.
const ENCODED_DOT = /%2e/gi;
const ENCODED_PERCENT = /%25/gi;

/**
 * Whether a path segment is `.` or `..`, plainly or percent-encoded (`%2e`, `%2E`, `.%2e`, `%252e`, ...): the URL
 * parser and servers resolve such a segment, so a parameter holding one would climb out of its route
 * (`tools.execute('..')` reaching `POST /v1/execute`).
 */
export function isDotSegment(segment: string): boolean {
  // Most segments hold no `%`: nothing to decode.
  if (!segment.includes('%')) return segment === '.' || segment === '..';
  let text = segment;
  for (;;) {
    const decoded = text.replace(ENCODED_PERCENT, '%').replace(ENCODED_DOT, '.');
    if (decoded === text) break;
    text = decoded;
  }
  return text === '.' || text === '..';
}

/**
 * A path parameter's value, encoded for the URL: one segment, or for a passed-through path (`slashes`) each
 * `/`-separated segment. A `.` or `..` segment, or a lone surrogate, is the caller's mistake ({@link
 * UsageProblem}), found before any request. The raw client's calls pass through here too.
 */
export function encodedPathParameter(op: Operation, name: string, value: string, slashes: boolean): string {
  const segments = slashes ? value.split('/') : undefined;
  if (segments === undefined ? isDotSegment(value) : segments.some(isDotSegment)) throw new UsageProblem('dotSegment', op, name, value);
  try {
    return segments === undefined ? encodeURIComponent(value) : segments.map(encodeURIComponent).join('/');
  } catch (error) {
    // encodeURIComponent's only failure: a lone surrogate.
    if (error instanceof URIError) throw new UsageProblem('loneSurrogate', op, name);
    throw error;
  }
}
