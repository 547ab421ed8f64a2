import type { BenchMode } from './benchMode.js';
import type { FigureRow } from './figureRow.js';
import type { MachineInfo } from './machine.js';

const COLUMNS = ['figure', 'ours', 'anchor (same run)', 'result', 'target', 'met'] as const;

function cells(row: FigureRow): string[] {
  return [row.name, row.ours, row.anchor, row.result, row.target, row.met === undefined ? '(smoke)' : row.met ? 'yes' : 'NO'];
}

/** The table for the terminal: columns padded to their widest cell. */
export function textTable(rows: readonly FigureRow[]): string {
  const table = [COLUMNS as readonly string[], ...rows.map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(table[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...table.slice(1).map(line)].join('\n');
}

const escape = (cell: string) => cell.replace(/\|/g, '\\|');

/** `bench/RESULTS.md`: the table, how each figure was measured, the machine, the command, and the findings. */
export function resultsMarkdown(input: {
  rows: readonly FigureRow[];
  machine: MachineInfo;
  mode: BenchMode;
  command: string;
  seconds: number;
  load: { start: string; end: string };
  findings: string;
}): string {
  const { rows, machine } = input;
  const out: string[] = [];
  out.push('# Benchmarks: oz-sdk and its embedded server, against their anchors', '');
  out.push(`Written by \`${input.command}\` (bench/run.ts) on ${machine.date}; the run took ${input.seconds.toFixed(0)} s. Every figure is`);
  out.push('measured in the same run as its anchor, against the same server. Regenerate with `npm run bench`.', '');
  out.push('## Machine', '');
  out.push(`- CPU: ${machine.cpu}, ${machine.cores} cores available to Node`);
  out.push(`- Node ${machine.node} on ${machine.os}, ${machine.memoryGb} GB of memory`);
  out.push(`- Commit: ${machine.commit}`);
  out.push(`- Load average (1 min) at the start and at the end: ${input.load.start} and ${input.load.end} (other processes share the cores)`);
  out.push(`- Command: \`${input.command}\`${input.mode.smoke ? ' (smoke mode: tiny counts, not a measurement)' : ''}`, '');
  out.push('## Figures', '');
  out.push(`| ${COLUMNS.join(' | ')} |`, `| ${COLUMNS.map(() => '---').join(' | ')} |`);
  for (const row of rows) out.push(`| ${cells(row).map(escape).join(' | ')} |`);
  out.push('', '## How each figure was measured', '');
  for (const row of rows) out.push(`- **${row.name}**: ${row.how}.`);
  out.push('', input.findings.trim(), '');
  return out.join('\n');
}
