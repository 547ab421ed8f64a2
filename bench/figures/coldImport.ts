/**
 * The cold import: a new Node process that runs `import('oz-sdk')` (the built `dist/index.js`, through the
 * package's `exports`), less a bare `node -e 0`, against the same for `import('openai')`. Each round starts the
 * three processes in a rotating order; the figure is the ratio of the medians of the two differences.
 */
import { spawnSync } from 'node:child_process';
import { builtEntry } from '../builtEntry.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

const LIMIT = 0.3;

function importCode(specifier: string): string {
  return `import(${JSON.stringify(specifier)}).catch((e) => { console.error(e); process.exit(1); })`;
}

function timeProcess(root: string, code: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-e', code], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node -e ${code} failed (${run.status}): ${run.stderr?.toString()}`);
  return ms;
}

export async function coldImportRows(ctx: FigureContext): Promise<FigureRow[]> {
  const entry = await builtEntry(ctx);
  const contenders = [
    { name: 'bare', code: '0' },
    { name: 'oz', code: importCode(entry.specifier) },
    { name: 'openai', code: importCode('openai') },
  ];
  ctx.log(`cold import: ${ctx.mode.coldRuns} processes each of node -e 0, import('oz-sdk'), import('openai')`);
  // One throw-away round: the first processes also warm the file system cache.
  for (const c of contenders) timeProcess(ctx.root, c.code);
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let run = 0; run < ctx.mode.coldRuns; run++) {
    const shift = run % contenders.length;
    for (const c of [...contenders.slice(shift), ...contenders.slice(0, shift)]) times.get(c.name)!.push(timeProcess(ctx.root, c.code));
  }
  const bare = median(times.get('bare')!);
  const oz = median(times.get('oz')!) - bare;
  const openai = median(times.get('openai')!) - bare;
  const ratio = oz / openai;
  return [
    {
      name: FIGURE_NAMES.coldImport,
      ours: `+${formatMs(oz)}`,
      anchor: `openai +${formatMs(openai)} (bare node -e 0: ${formatMs(bare)})`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `median of ${ctx.mode.coldRuns} new processes each, node -e "import('oz-sdk')" (${entry.note}) less node -e 0`,
    },
  ];
}
