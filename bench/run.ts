/**
 * `npm run bench`: measures the SDK and its embedded server side by side with their anchors (issue 7), prints the
 * table, and writes `bench/RESULTS.md`. `--smoke` (or `BENCH_SMOKE=1`) starts every benchmark with tiny counts
 * and only prints (for CI: it checks that every benchmark still runs, never how fast).
 *
 *   node --import tsx bench/run.ts [--smoke] [--only=<figure>,<figure>...]
 *
 * `--only` runs the figures named (for example `--only="server scale,memory under load"`) and only prints their
 * rows: RESULTS.md is written by full runs.
 *
 * Everything runs on 127.0.0.1 and every loop is bounded (tinybench's time budgets, fixed round counts, load
 * runs of a fixed duration).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModeOf } from './benchMode.js';
import type { FigureContext } from './figureContext.js';
import type { FigureRow } from './figureRow.js';
import { agentStreamRows } from './figures/agentStreamEndToEnd.js';
import { bundleSizeRows } from './figures/bundleSize.js';
import { cliStartupRows } from './figures/cliStartup.js';
import { coldImportRows } from './figures/coldImport.js';
import { consumerTypeCheckRows } from './figures/consumerTypeCheck.js';
import { executionWaitRows } from './figures/executionWait.js';
import { inProcessMountRows } from './figures/inProcessMount.js';
import { mswMountRows } from './figures/mswMount.js';
import { mswSuiteRows } from './figures/mswSuite.js';
import { loopbackCallRows } from './figures/loopbackCalls.js';
import { ozMockBinaryRows } from './figures/ozMockBinary.js';
import { concurrentCallRows, memoryUnderLoadRows } from './figures/serverLoad.js';
import { idleGrowthRows, serverScaleRows, snapshotGrowthRows } from './figures/serverScale.js';
import { serverFirstCallRows } from './figures/serverFirstCall.js';
import { serverThroughputRows } from './figures/serverThroughput.js';
import { sessionRows } from './figures/sessions.js';
import { sseRows } from './figures/sseParsing.js';
import { streamMemoryRows } from './figures/streamMemory.js';
import { tracingCostRows } from './figures/tracingCost.js';
import { validationCostRows } from './figures/validationCost.js';
import { chaosCostRows } from './figures/chaosCost.js';
import { loadAverage, machineInfo } from './machine.js';
import { resultsMarkdown, textTable } from './resultsReport.js';
import { startServerProcess } from './serverProcess.js';
import { builtPackage, importPackage } from './builtPackage.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const mode = benchModeOf(args, process.env);
const command = process.env['npm_lifecycle_event'] ? `npm run ${process.env['npm_lifecycle_event']}` : ['node --import tsx bench/run.ts', ...args].join(' ');
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const figures: ReadonlyArray<readonly [string, (ctx: FigureContext) => Promise<FigureRow[]>]> = [
  ['loopback calls', loopbackCallRows],
  ['in-process mount', inProcessMountRows],
  // Issue 47's point 8: the mount per call, then the suite through msw.
  ['msw', async (ctx) => [...(await mswMountRows(ctx)), ...(await mswSuiteRows(ctx))]],
  ['SSE parsing', sseRows],
  ['executions.wait', executionWaitRows],
  ['server throughput', serverThroughputRows],
  ['concurrent calls', concurrentCallRows],
  ['server scale', serverScaleRows],
  ['snapshot/restore growth', snapshotGrowthRows],
  ['idle() with 4k-32k queued runs', idleGrowthRows],
  ['memory under load', memoryUnderLoadRows],
  ['stream memory', streamMemoryRows],
  ['cold import', coldImportRows],
  ['cli start-up', cliStartupRows],
  ['bundle size', bundleSizeRows],
  ['consumer type-check', consumerTypeCheckRows],
  ['tracing cost', tracingCostRows],
  ['sessions', sessionRows],
  ['server first call', serverFirstCallRows],
  ['validation cost', validationCostRows],
  ['chaos cost', chaosCostRows],
  ['agent stream', agentStreamRows],
  ['oz-mock binary', ozMockBinaryRows],
];
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .map((name) => name.trim());
const unknown = only?.filter((name) => !figures.some(([figure]) => figure === name)) ?? [];
if (unknown.length) throw new Error(`Unknown figure(s): ${unknown.join(', ')}. Figures: ${figures.map(([name]) => name).join(', ')}`);
const chosen = only ? figures.filter(([name]) => only.includes(name)) : figures;

const started = performance.now();
const loadStart = loadAverage();
log(mode.smoke ? 'smoke run (tiny counts, nothing judged)' : 'full run');
const pkg = await builtPackage(root, mode.smoke, log);
const modules = await importPackage(pkg);
log(`measuring ${pkg.note}; starting the embedded server in a child process`);
const oz = await startServerProcess('oz', pkg.testingSpecifier);
const ctx: FigureContext = { mode, root, pkg, modules, oz, log };
const rows: FigureRow[] = [];
const failed: string[] = [];
try {
  for (const [name, figure] of chosen) {
    try {
      rows.push(...(await figure(ctx)));
    } catch (error) {
      failed.push(name);
      log(`${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
} finally {
  await oz.stop();
}
const seconds = (performance.now() - started) / 1000;

console.log(`\noz-sdk benchmarks${mode.smoke ? ' (smoke: tiny counts, not a measurement)' : ''}\n`);
console.log(textTable(rows));
if (failed.length > 0) console.log(`\nFailed: ${failed.join(', ')}`);
if (only) {
  console.log('\nHow each figure was measured:');
  for (const row of rows) console.log(`- ${row.name}: ${row.how}`);
}

if (!mode.smoke && !only) {
  const findingsFile = join(root, 'bench', 'findings.md');
  const findings = existsSync(findingsFile) ? readFileSync(findingsFile, 'utf8') : '';
  const markdown = resultsMarkdown({ rows, machine: machineInfo(root), mode, command, seconds, load: { start: loadStart, end: loadAverage() }, findings });
  writeFileSync(join(root, 'bench', 'RESULTS.md'), markdown);
  console.log('\nWrote bench/RESULTS.md');
}
console.log(`\nDone in ${seconds.toFixed(1)} s.`);
process.exit(failed.length > 0 ? 1 : 0);
