import type { OzCoverageReport } from './coverage.js';

/**
 * What `expectCoverage()` throws when a run exercised less of openapi.json than its limits ask: the message names
 * every missed response (`executeTool 424 connection_required`), one a line.
 */
export class OzCoverageError extends Error {
  override readonly name = 'OzCoverageError';
  /** Every missed response by name (`operationId status [code] [streamed]`): below `min`, then of `require`. */
  readonly missed: readonly string[];
  /** The report the limits were held against. */
  readonly report: OzCoverageReport;

  constructor(message: string, missed: readonly string[], report: OzCoverageReport) {
    super(message);
    this.missed = missed;
    this.report = report;
  }
}
