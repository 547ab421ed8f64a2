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

/**
 * For each of `fns`, the median over rounds of the mean time of one call (`perRound` calls a round), after a
 * warm-up of `warmUp` calls of each; the rounds alternate between them (the order swapping every round), so that
 * a busy moment of the machine falls on each alike (one run after the other swung 75-260 µs between runs).
 */
async function perCall(rounds: number, perRound: number, warmUp: number, fns: readonly (() => unknown)[]): Promise<number[]> {
  for (const fn of fns) for (let i = 0; i < warmUp; i++) await fn();
  const means: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? fns.map((_, i) => i) : fns.map((_, i) => fns.length - 1 - i);
    for (const i of order) {
      const start = performance.now();
      for (let n = 0; n < perRound; n++) await fns[i]!();
      means[i]!.push((performance.now() - start) / perRound);
    }
  }
  return means.map(median);
}

export async function sessionRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { createOzServer } = ctx.modules.testing;
  // µs-level figures: three times the bench's rounds, each after a warm-up of a thousand calls.
  const rounds = ctx.mode.smoke ? 2 : ctx.mode.rounds * 3;
  const perRound = ctx.mode.smoke ? 3 : 200;
  const warmUp = ctx.mode.smoke ? 3 : 1000;
  const server = createOzServer();
  try {
    ctx.log('sessions: create + end, reset, against createOzServer()');
    const session = server.session();
    // A reset after a test's worth of writes: an item, a run, a fault.
    const times = await perCall(rounds, perRound, warmUp, [
      () => server.session().close(),
      () => createOzServer().close(),
      () => {
        session.addAccount({ name: `acct_${Math.random().toString(36).slice(2)}` });
        session.faults.add({ operationId: 'listTools', type: 'drop' });
        session.reset();
      },
    ]);
    const [createEnd, wholeServer, reset] = [times[0]!, times[1]!, times[2]!];
    const limit = 2;
    const how = (what: string) => `${what}; ${rounds} rounds of ${perRound} after ${warmUp} warm-up calls, alternating with the other rows' operations, median of per-round means, in process`;
    return [
      { name: FIGURE_NAMES.sessionCreateEnd, ours: formatMs(createEnd), anchor: `createOzServer()+close ${formatMs(wholeServer)}`, result: formatMs(createEnd), target: `< ${limit} ms`, met: judged(ctx.mode.smoke, createEnd < limit), how: how('server.session() then close()') },
      { name: FIGURE_NAMES.sessionReset, ours: formatMs(reset), anchor: `createOzServer()+close ${formatMs(wholeServer)}`, result: formatMs(reset), target: `< ${limit} ms`, met: judged(ctx.mode.smoke, reset < limit), how: how('session.reset() after an account and a fault were added') },
    ];
  } finally {
    await server.close();
  }
}
