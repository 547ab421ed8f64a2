/**
 * The embedded server at scale (issue 18), each size in a process of its own (`scaleWorker.ts`, a fresh heap):
 * - list pages at 10k, 100k and 1M executions and items: the first page and a page deep in the list (the cursor
 *   of the middle row), plain and under filters; the 1M page against the 10k page of the same route;
 * - `restore()` and `snapshot()` of those records, and how they grow per 10x of records;
 * - `server.idle()` with 4k to 32k async runs queued on a frozen clock: the time at 32k, and the growth of the
 *   time per run from one doubling to the next (linear: 1.0x; quadratic: 2.0x).
 * Records get in through snapshot/restore (the API would take minutes for a million); see the worker.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';

const WORKER = fileURLToPath(new URL('../scaleWorker.ts', import.meta.url));

/** The page routes the worker times, with their names in the table. */
const PAGES = {
  executionsFirst: 'executions first page',
  executionsDeep: 'executions deep page',
  executionsFilteredDeep: 'executions deep page, status=failed&kind=tool',
  itemsFirst: 'items first page',
  itemsDeep: 'items deep page',
  itemsFilteredDeep: 'items deep page, building=lab&status=done',
} as const;

type ListFigures = Record<keyof typeof PAGES | 'restoreMs' | 'snapshotMs' | 'records', number>;

/** Runs the worker once and answers its JSON line. */
export function runScaleWorker<T>(testingSpecifier: string, kind: 'lists' | 'idle', count: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--import', 'tsx', WORKER, kind, testingSpecifier, String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) reject(new Error(`scale worker ${kind} ${count} exited with ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

const short = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

export async function serverScaleRows(ctx: FigureContext): Promise<FigureRow[]> {
  const sizes = ctx.mode.smoke ? [1000, 2000] : [10_000, 100_000, 1_000_000];
  const lists: ListFigures[] = [];
  for (const size of sizes) {
    ctx.log(`server scale: ${size.toLocaleString('en')} executions and items`);
    lists.push(await runScaleWorker<ListFigures>(ctx.pkg.testingSpecifier, 'lists', size));
  }
  const small = lists[0]!;
  const large = lists.at(-1)!;
  const curve = (key: keyof ListFigures) => lists.map((l) => `${short(l.records)} ${formatMs(l[key])}`).join(', ');
  const rows: FigureRow[] = (['executionsFirst', 'executionsDeep', 'itemsFirst', 'itemsDeep'] as const).map((key) => {
      const filtered = key.replace('Deep', 'FilteredDeep') as keyof typeof PAGES;
      const ratio = large[key] / small[key];
      const filteredRatio = key.endsWith('Deep') ? large[filtered] / small[filtered] : undefined;
      const worst = Math.max(ratio, filteredRatio ?? 0);
      return {
        name: FIGURE_NAMES[`scale_${key}`],
        ours: `${formatMs(large[key])} at ${short(large.records)}`,
        anchor: `${formatMs(small[key])} at ${short(small.records)} (same route)`,
        result: `${formatRatio(ratio)}${filteredRatio === undefined ? '' : `; filtered ${formatRatio(filteredRatio)}`}`,
        target: '<= 2.00',
        met: judged(ctx.mode.smoke, worst <= 2),
        how:
          `GET of 20 rows through server.handle, median of 51 calls after a warm-up, each size in a fresh process; ${PAGES[key]}: ${curve(key)}` +
          (filteredRatio === undefined ? '' : `; ${PAGES[filtered]}: ${curve(filtered)}`),
      };
    });

  const growth = (key: 'restoreMs' | 'snapshotMs') => lists.slice(1).map((l, i) => l[key] / lists[i]![key]);
  const worstGrowth = Math.max(...growth('restoreMs'), ...growth('snapshotMs'));
  rows.push({
    name: FIGURE_NAMES.scaleSnapshot,
    ours: `restore ${formatMs(large.restoreMs)}, snapshot ${formatMs(large.snapshotMs)} at ${short(large.records)} executions + ${short(large.records)} items`,
    anchor: `at ${short(small.records)}: restore ${formatMs(small.restoreMs)}, snapshot ${formatMs(small.snapshotMs)}`,
    result: `per 10x of records: restore ${growth('restoreMs').map(formatRatio).join(', ')}; snapshot ${growth('snapshotMs').map(formatRatio).join(', ')}`,
    target: '<= 12x per 10x (linear)',
    met: judged(ctx.mode.smoke, worstGrowth <= 12),
    how: `server.restore() of a snapshot holding the records, then server.snapshot(); restore ${curve('restoreMs')}; snapshot ${curve('snapshotMs')}`,
  });

  const counts = ctx.mode.smoke ? [500, 1000] : [4000, 8000, 16_000, 32_000];
  const idle: Array<{ runs: number; idleMs: number }> = [];
  for (const runs of counts) {
    ctx.log(`server scale: idle() with ${runs.toLocaleString('en')} queued async runs`);
    idle.push(await runScaleWorker(ctx.pkg.testingSpecifier, 'idle', runs));
  }
  const perRunGrowth = idle.slice(1).map((x, i) => x.idleMs / x.runs / (idle[i]!.idleMs / idle[i]!.runs));
  const last = idle.at(-1)!;
  rows.push({
    name: FIGURE_NAMES.scaleIdle,
    ours: `${formatMs(last.idleMs)} for ${last.runs.toLocaleString('en')} runs`,
    anchor: `${formatMs(idle[0]!.idleMs)} for ${idle[0]!.runs.toLocaleString('en')} runs`,
    result: `time per run per doubling: ${perRunGrowth.map(formatRatio).join(', ')}`,
    target: '< 2 s at 32k; <= 1.50x per doubling',
    met: judged(ctx.mode.smoke, last.idleMs < 2000 && Math.max(...perRunGrowth) <= 1.5),
    how: `async echo runs queued through server.handle on a frozen clock (after 1000 warm-up runs), then server.idle() timed, each count in a fresh process: ${idle.map((x) => `${short(x.runs)} ${formatMs(x.idleMs)}`).join(', ')}`,
  });
  return rows;
}
