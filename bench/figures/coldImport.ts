/**
 * The cold import: a new Node process that runs `import('oz-sdk')` (the built `dist/index.js`, through the
 * package's `exports`), less a bare `node -e 0`, against the same for `import('openai')`.
 *
 * Each process prints `performance.now()` (milliseconds since the process started) once its import resolved, and
 * the bare one once its script runs: the difference is the import's cost, without the noise of spawning and
 * tearing down a process, which on a shared machine is larger than the import itself. The wall time of each
 * process, seen from outside, is reported too. Rounds start the three processes in a rotating order; the figure
 * is the ratio of the medians of the two differences.
 */
import { spawnSync } from 'node:child_process';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

/** Issue 35 (the whole call path loads with the client now): at most half of openai-node's (issue 14 had 0.30). */
const LIMIT = 0.5;
const PRINT_NOW = 'process.stdout.write(String(performance.now()))';

function importCode(specifier: string): string {
  return `import(${JSON.stringify(specifier)}).then(() => ${PRINT_NOW}, (e) => { console.error(e); process.exit(1); })`;
}

/** Milliseconds from the process's start to the script's mark, and the process's wall time seen from here. */
function timeProcess(root: string, code: string): { mark: number; wall: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wall = performance.now() - started;
  const mark = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(mark)) throw new Error(`node -e ${code} failed (${run.status}): ${run.stderr}`);
  return { mark, wall };
}

export async function coldImportRows(ctx: FigureContext): Promise<FigureRow[]> {
  const contenders = [
    { name: 'bare', code: PRINT_NOW },
    { name: 'oz', code: importCode(ctx.pkg.indexSpecifier) },
    { name: 'openai', code: importCode('openai') },
  ];
  ctx.log(`cold import: ${ctx.mode.coldRuns} processes each of node -e 0, import('oz-sdk'), import('openai')`);
  // One throw-away round: the first processes also warm the file system cache.
  for (const c of contenders) timeProcess(ctx.root, c.code);
  const marks = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const walls = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let run = 0; run < ctx.mode.coldRuns; run++) {
    const shift = run % contenders.length;
    for (const c of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
      const { mark, wall } = timeProcess(ctx.root, c.code);
      marks.get(c.name)!.push(mark);
      walls.get(c.name)!.push(wall);
    }
  }
  const cost = (name: string, of: Map<string, number[]>) => median(of.get(name)!) - median(of.get('bare')!);
  const oz = cost('oz', marks);
  const openai = cost('openai', marks);
  const ratio = oz / openai;
  return [
    {
      name: FIGURE_NAMES.coldImport,
      ours: `+${formatMs(oz)} (wall +${formatMs(cost('oz', walls))})`,
      anchor: `openai +${formatMs(openai)} (wall +${formatMs(cost('openai', walls))}; bare node -e 0: ${formatMs(median(walls.get('bare')!))} wall)`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how:
        `median of ${ctx.mode.coldRuns} new processes each: performance.now() when node -e "import('oz-sdk')" resolved (${ctx.pkg.note}), ` +
        `less the same mark of a bare node -e; the outside wall times are shown in brackets`,
    },
  ];
}
