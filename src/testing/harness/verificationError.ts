import { describeNearMisses, type NearMiss } from './nearMisses.js';

/**
 * `journal.verify()` found other than what it expected (`POST /_oz/journal/verify` answers 422 with the same
 * fields): how many requests matched, how many were expected, and the closest entries with what differs.
 */
export class OzVerificationError extends Error {
  override readonly name = 'OzVerificationError';
  /** How many entries matched the filter. */
  readonly count: number;
  /** How many were expected: a number, or `null` for "at least one". */
  readonly times: number | null;
  /** The closest entries (at most three), closest first, each with its `differences`. */
  readonly nearMisses: readonly NearMiss[];

  constructor(message: string, fields: { readonly count: number; readonly times: number | null; readonly nearMisses: readonly NearMiss[] }) {
    super(message);
    this.count = fields.count;
    this.times = fields.times;
    this.nearMisses = fields.nearMisses;
  }
}

/** The error of a verification that failed: its message names the filter, the counts and the closest entries. */
export function verificationFailure(filter: string, times: number | null, count: number, nearMisses: readonly NearMiss[]): OzVerificationError {
  const wanted = times === null ? 'at least one request' : `${times} request${times === 1 ? '' : 's'}`;
  return new OzVerificationError(`Expected ${wanted} matching ${filter}, found ${count}.\n${describeNearMisses(nearMisses)}`, { count, times, nearMisses });
}
