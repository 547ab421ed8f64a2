// What the console's Coverage view shows, worked out from `GET /_oz/coverage` without the DOM (so vitest can hold
// it to the server's own report).

interface ReportResponse {
  readonly status: number;
  readonly code: string | null;
  readonly streamed: boolean;
  readonly count: number;
  readonly by: Readonly<Record<string, number>>;
  readonly declared: boolean;
}

interface ReportOperation {
  readonly operationId: string;
  readonly calls: number;
  readonly responses: readonly ReportResponse[];
}

/** One row of the view: a response of an operation the run called. */
export interface CoverageRow {
  readonly operationId: string;
  /** `424 connection_required`, `200 streamed`, `200`. */
  readonly response: string;
  readonly count: number;
  /** What gave it: `handler 2, stub 1` (only the answerers that did), `–` when nothing did. */
  readonly by: string;
  /** `covered`, `missed` (declared, no request got it) or `undeclared` (outside openapi.json). */
  readonly state: 'covered' | 'missed' | 'undeclared';
}

/** The view's content: its summary line, the rows of the operations called, and the operations never called. */
export interface CoverageModel {
  readonly summary: string;
  readonly rows: readonly CoverageRow[];
  readonly notCalled: readonly string[];
}

const responseText = (r: ReportResponse) => [String(r.status), ...(r.code === null ? [] : [r.code]), ...(r.streamed ? ['streamed'] : [])].join(' ');

const byText = (by: Readonly<Record<string, number>>) =>
  Object.entries(by)
    .filter(([, n]) => n > 0)
    .map(([who, n]) => `${who} ${n}`)
    .join(', ') || '–';

/** The model of a report (`{ operations, summary }` as `GET /_oz/coverage` answers it). */
export function coverageModel(report: unknown): CoverageModel {
  const { operations = [], summary } = (report ?? {}) as {
    operations?: readonly ReportOperation[];
    summary?: { declared: number; covered: number; share: number };
  };
  const called = operations.filter((o) => o.calls > 0);
  const rows = called.flatMap((o) =>
    o.responses.map((r): CoverageRow => ({
      operationId: o.operationId,
      response: responseText(r),
      count: r.count,
      by: byText(r.by),
      state: !r.declared ? 'undeclared' : r.count > 0 ? 'covered' : 'missed',
    })),
  );
  const share = summary ? `${(Math.round(summary.share * 1000) / 10).toFixed(1)} %` : '–';
  return {
    summary: `${summary?.covered ?? 0} of ${summary?.declared ?? 0} declared responses of the ${called.length} operations called were covered (${share}).`,
    rows,
    notCalled: operations.filter((o) => o.calls === 0).map((o) => o.operationId),
  };
}
