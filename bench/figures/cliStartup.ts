/**
 * The start-up of `oz --help`: the wall time of a new process running the built `oz` bin (`dist/cli/oz.js`) to
 * print its help, against a bare `node -e 0`, seen from outside (spawn to exit). Rounds start the two in a
 * rotating order; the figure is the ratio of the medians.
 */
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

const LIMIT = 1.5;

function wall(args: readonly string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return ms;
}

export async function cliStartupRows(ctx: FigureContext): Promise<FigureRow[]> {
  const bin = ctx.pkg.cliFile;
  const contenders = [
    { name: 'bare', args: ['-e', '0'] },
    { name: 'oz', args: [bin, '--help'] },
  ];
  ctx.log(`cli start-up: ${ctx.mode.coldRuns} processes each of node -e 0 and oz --help`);
  for (const c of contenders) wall(c.args);
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let run = 0; run < ctx.mode.coldRuns; run++) {
    for (const c of run % 2 ? [...contenders].reverse() : contenders) times.get(c.name)!.push(wall(c.args));
  }
  const bare = median(times.get('bare')!);
  const oz = median(times.get('oz')!);
  const ratio = oz / bare;
  return [
    {
      name: FIGURE_NAMES.cliStartup,
      ours: formatMs(oz),
      anchor: `node -e 0 ${formatMs(bare)}`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `median wall time (spawn to exit) of ${ctx.mode.coldRuns} new processes each, in alternating order: node ${relative(ctx.root, bin)} --help against node -e 0`,
    },
  ];
}
