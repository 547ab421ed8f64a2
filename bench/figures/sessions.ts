/**
 * What a session costs (issue 26): creating one and ending it, and resetting one, on the built package, against
 * making a whole server (`createOzServer()`), what a test would do without sessions. Measured in a process of its
 * own (`sessionWorker.ts`: a fresh heap, a forced GC before each contender's turn), after a warm-up, in rounds
 * that alternate the three (the order rotating each round): each figure is the median of the per-round means (a
 * round of 50 calls is a few milliseconds: a slice of another process on a shared machine lands in a few rounds,
 * not in the median). The target is under 2 ms each.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, judged, type FigureRow } from '../figureRow.js';
import { median, quartiles } from '../latencyComparison.js';
import type { SessionRounds } from '../sessionWorker.js';

const WORKER = fileURLToPath(new URL('../sessionWorker.ts', import.meta.url));

function runSessionWorker(testingSpecifier: string, rounds: number, calls: number, warmUpBlocks: number): Promise<SessionRounds> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', WORKER, testingSpecifier, String(rounds), String(calls), String(warmUpBlocks)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) reject(new Error(`session worker exited with ${code}`));
      else resolve(JSON.parse(line) as SessionRounds);
    });
  });
}

/** A median with the quartiles of the rounds it is the median of. */
const spread = (means: number[]) => {
  const [q1, q3] = quartiles(means);
  return `${formatMs(median(means))} (rounds ${formatMs(q1)}-${formatMs(q3)})`;
};

export async function sessionRows(ctx: FigureContext): Promise<FigureRow[]> {
  const rounds = ctx.mode.smoke ? 2 : 601;
  const calls = ctx.mode.smoke ? 3 : 50;
  // With 5 blocks (250 calls of each) the first rounds still ran 7 % slower than the last.
  const warmUpBlocks = ctx.mode.smoke ? 1 : 20;
  ctx.log(`sessions: create + end, reset, against createOzServer(), ${rounds} alternating rounds of ${calls}`);
  const means = await runSessionWorker(ctx.pkg.testingSpecifier, rounds, calls, warmUpBlocks);
  const createEnd = median(means.createEnd);
  const reset = median(means.reset);
  const anchor = `createOzServer()+close ${spread(means.wholeServer)}`;
  const limit = 2;
  const how = (what: string) =>
    `${what}; in a process of its own, after a warm-up (${warmUpBlocks} blocks of ${calls} calls of each contender, taking turns), ${rounds} rounds of ${calls} calls of each of ` +
    `session create+end, session reset and createOzServer()+close, the order rotating each round, a forced GC before each; the median of the per-round means (quartiles in brackets)`;
  return [
    {
      name: FIGURE_NAMES.sessionCreateEnd,
      ours: spread(means.createEnd),
      anchor,
      result: formatMs(createEnd),
      target: `< ${limit} ms`,
      met: judged(ctx.mode.smoke, createEnd < limit),
      how: how('server.session() then close()'),
    },
    {
      name: FIGURE_NAMES.sessionReset,
      ours: spread(means.reset),
      anchor,
      result: formatMs(reset),
      target: `< ${limit} ms`,
      met: judged(ctx.mode.smoke, reset < limit),
      how: how('session.reset() after an account and a fault were added'),
    },
  ];
}
