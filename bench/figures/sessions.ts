/**
 * What a session costs (issue 26): creating one and ending it, and resetting one, on the built package in this
 * process, against making a whole server (`createOzServer()`), what a test would do without sessions. Each figure
 * is the median of rounds of many operations; the target is under 2 ms each.
 */
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, judged, type FigureRow } from '../figureRow.js';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median over rounds of the mean time of one call of `fn` (`perRound` calls a round). */
async function perCall(rounds: number, perRound: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < perRound; i++) await fn(); // warm-up
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < perRound; i++) await fn();
    means.push((performance.now() - start) / perRound);
  }
  return median(means);
}

export async function sessionRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { createOzServer } = ctx.modules.testing;
  const rounds = ctx.mode.smoke ? 2 : ctx.mode.rounds;
  const perRound = ctx.mode.smoke ? 3 : 50;
  const server = createOzServer();
  try {
    ctx.log('sessions: create + end, reset, against createOzServer()');
    const createEnd = await perCall(rounds, perRound, () => server.session().close());
    const wholeServer = await perCall(rounds, perRound, () => createOzServer().close());
    const session = server.session();
    // A reset after a test's worth of writes: an item, a run, a fault.
    const reset = await perCall(rounds, perRound, async () => {
      session.addAccount({ name: `acct_${Math.random().toString(36).slice(2)}` });
      session.faults.add({ operationId: 'listTools', type: 'drop' });
      session.reset();
    });
    const limit = 2;
    const how = (what: string) => `${what}; ${rounds} rounds of ${perRound}, median of per-round means, in process`;
    return [
      { name: FIGURE_NAMES.sessionCreateEnd, ours: formatMs(createEnd), anchor: `createOzServer()+close ${formatMs(wholeServer)}`, result: formatMs(createEnd), target: `< ${limit} ms`, met: judged(ctx.mode.smoke, createEnd < limit), how: how('server.session() then close()') },
      { name: FIGURE_NAMES.sessionReset, ours: formatMs(reset), anchor: `createOzServer()+close ${formatMs(wholeServer)}`, result: formatMs(reset), target: `< ${limit} ms`, met: judged(ctx.mode.smoke, reset < limit), how: how('session.reset() after an account and a fault were added') },
    ];
  } finally {
    await server.close();
  }
}
