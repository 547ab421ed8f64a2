import type { CoverageOperation, CoverageResponse, OzCoverageReport } from './coverage.js';

/** The forms a coverage report is written in (`oz-mock --coverage FILE`, `GET /_oz/coverage?format=`). */
export type CoverageFormat = 'json' | 'txt' | 'html';

/** The form a file's name asks for (`.json`, `.html` or `.txt`, any case), or `null`. */
export function coverageFormatOf(file: string): CoverageFormat | null {
  const m = /\.(json|html|txt)$/i.exec(file);
  return m ? (m[1]!.toLowerCase() as CoverageFormat) : null;
}

const pct = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)} %`;

/** The summary's one line. */
export function coverageSummaryLine(report: OzCoverageReport): string {
  const { declared, covered, share } = report.summary;
  const called = report.operations.filter((o) => o.calls > 0).length;
  return `${covered} of ${declared} declared responses covered (${pct(share)}) over the ${called} operation${called === 1 ? '' : 's'} called`;
}

const HEADINGS = ['operation', 'calls', 'status', 'code', 'streamed', 'count', 'handler', 'stub', 'fault', 'chaos', 'declared'] as const;

/** A response's cells, in {@link HEADINGS} order after the operation's two. */
function cells(r: CoverageResponse): string[] {
  return [
    String(r.status),
    r.code ?? '-',
    r.streamed ? 'yes' : 'no',
    String(r.count),
    String(r.by.handler),
    String(r.by.stub),
    String(r.by.fault),
    String(r.by.chaos),
    r.declared ? 'yes' : 'NO',
  ];
}

/** The rows of an operation: one per response of an operation called, one `not called` row otherwise. */
function rows(o: CoverageOperation): string[][] {
  if (o.calls === 0 && o.responses.every((r) => r.count === 0)) return [[o.operationId, '0', 'not called', '', '', '', '', '', '', '', '']];
  return o.responses.map((r, i) => [i === 0 ? o.operationId : '', i === 0 ? String(o.calls) : '', ...cells(r)]);
}

/** The report as a text table (`.txt`): every response of the operations called, a line for each one not called. */
export function coverageText(report: OzCoverageReport): string {
  const table = [[...HEADINGS], ...report.operations.flatMap(rows)];
  const widths = HEADINGS.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  );
  return `oz-mock coverage of openapi.json\n\n${lines.join('\n')}\n\n${coverageSummaryLine(report)}\n`;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1b1b}table{border-collapse:collapse;margin:0 0 1.5rem}
th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}th{background:#f2f2f2}tr.missed td{background:#fdecea}
tr.covered td{background:#e8f5e9}tr.undeclared td{background:#fff4e5}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}.calls{color:#555}`;

/** One operation's section of the page. */
function operationSection(o: CoverageOperation): string {
  const head = `<h2 id="${escape(o.operationId)}">${escape(o.operationId)} <span class="calls">(${o.calls} call${o.calls === 1 ? '' : 's'})</span></h2>`;
  const headings = HEADINGS.slice(2)
    .map((h) => `<th scope="col">${h}</th>`)
    .join('');
  const body = o.responses
    .map((r) => {
      const mark = !r.declared ? 'undeclared' : r.count > 0 ? 'covered' : 'missed';
      return `<tr class="${mark}">${cells(r)
        .map((c) => `<td>${escape(c)}</td>`)
        .join('')}</tr>`;
    })
    .join('\n');
  return `${head}\n<table><thead><tr>${headings}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The report as one self-contained HTML page (`.html`): no script, no external style sheet, font or image. */
export function coverageHtml(report: OzCoverageReport): string {
  const called = report.operations.filter((o) => o.calls > 0);
  const notCalled = report.operations.filter((o) => o.calls === 0 && !o.responses.some((r) => r.count > 0));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>oz-mock coverage</title>
<style>${STYLE}</style>
</head>
<body>
<h1>oz-mock coverage of openapi.json</h1>
<p id="summary">${escape(coverageSummaryLine(report))}</p>
${called.map(operationSection).join('\n')}
<h2>Not called</h2>
<p id="not-called">${notCalled.length === 0 ? 'None.' : notCalled.map((o) => escape(o.operationId)).join(', ')}</p>
</body>
</html>
`;
}

/** The report in a form. */
export function renderCoverage(report: OzCoverageReport, format: CoverageFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  return format === 'html' ? coverageHtml(report) : coverageText(report);
}
