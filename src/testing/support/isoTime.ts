let lastMs = Number.NaN;
let lastIso = '';

/**
 * A time (ms since the epoch) as RFC 3339 UTC with milliseconds, like `new Date(ms).toISOString()`. The last one
 * is remembered: a record's `created_at` and `updated_at`, and the records of one millisecond, share the work.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
