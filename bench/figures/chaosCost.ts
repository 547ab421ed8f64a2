/**
 * What chaos rules cost a request: the same `tools.execute('echo')` through the in-process mount (`server.fetch`)
 * of a server with chaos off and of one with chaos on (eight rules: seven that match other operations, then one
 * that matches and draws on every request, at probability 0 so that it never fires: the cost is matching and
 * drawing, not the faults). Timed in this process's CPU time, as the validation figure.
 */
import type { ChaosDocument } from '../../src/testing/index.js';
import { compareLatency, median, medianRatio, quartiles, roundRatios } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatSpread, judged, type FigureRow } from '../figureRow.js';

const LIMIT_US = 5;

const OTHERS = ['executeAgent', 'executeWorkflow', 'createCompanyItem', 'createSchedule', 'listExecutions', 'getExecution', 'createChatCompletion'] as const;

const CHAOS: ChaosDocument = {
  seed: 53,
  rules: [
    ...OTHERS.map((operationId) => ({ match: { operationId }, probability: 0.1, fault: { type: 'error' as const, code: 'declared' as const } })),
    { match: { operationId: 'executeTool', method: 'POST' }, probability: 0, fault: { type: 'lose' } },
  ],
};

export async function chaosCostRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Oz } = ctx.modules.sdk;
  const off = ctx.modules.testing.createOzServer({ rateLimit: { limit: 1e9 } });
  const on = ctx.modules.testing.createOzServer({ rateLimit: { limit: 1e9 }, chaos: CHAOS });
  try {
    const client = (server: typeof off) => new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
    const offClient = client(off);
    const onClient = client(on);
    const body = { text: 'hello' };
    ctx.log('chaos: tools.execute through server.fetch with chaos off, and on (8 rules, the matching one drawing at probability 0)');
    const comparison = await compareLatency(
      ctx.mode,
      [
        { name: 'off', fn: () => offClient.tools.execute('echo', body) },
        { name: 'on', fn: () => onClient.tools.execute('echo', body) },
      ],
      'cpu',
    );
    const onRounds = comparison.roundsMs.get('on')!;
    const offRounds = comparison.roundsMs.get('off')!;
    const costUs = median(onRounds.map((value, i) => (value - offRounds[i]!) * 1000));
    if (on.journal.entries.some((e) => e.chaos !== null)) throw new Error('a chaos rule at probability 0 fired');
    return [
      {
        name: FIGURE_NAMES.chaosOn,
        ours: formatMs(comparison.medianMs.get('on')!),
        anchor: `chaos off ${formatMs(comparison.medianMs.get('off')!)}`,
        result: `${costUs >= 0 ? '+' : ''}${costUs.toFixed(1)} µs/call (${formatSpread(medianRatio(comparison, 'on', 'off'), quartiles(roundRatios(comparison, 'on', 'off')))})`,
        target: `<= ${LIMIT_US} µs/call`,
        met: judged(ctx.mode.smoke, costUs <= LIMIT_US),
        how: `oz.tools.execute('echo') with fetch: server.fetch, 8 chaos rules; ${ctx.mode.rounds} rounds, process CPU time; median of per-round differences of medians`,
      },
    ];
  } finally {
    await Promise.all([off.close(), on.close()]);
  }
}
