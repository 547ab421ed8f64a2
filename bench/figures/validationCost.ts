/**
 * What response validation costs the client: the same `tools.execute('echo')` through the in-process mount
 * (`server.fetch`, no socket noise) from a client with `validate: 'off'` and one with no option at all (what
 * `off` must cost: nothing), and with `validate: 'strict'` (the generated validators run on every answer: its
 * own row, the cost per call against `off`). Timed in this process's CPU time, as the in-process mount figure.
 */
import { compareLatency, median, medianRatio, quartiles, roundRatios } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatSpread, judged, type FigureRow } from '../figureRow.js';

const OFF_LIMIT = 1.05;
const STRICT_LIMIT_US = 25;

export async function validationCostRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Oz } = ctx.modules.sdk;
  const server = ctx.modules.testing.createOzServer({ rateLimit: { limit: 1e9 } });
  try {
    const client = (validate?: 'off' | 'strict') =>
      new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, ...(validate ? { validate } : {}) });
    const none = client();
    const off = client('off');
    const strict = client('strict');
    const body = { text: 'hello' };
    ctx.log("validation: tools.execute through server.fetch with validate 'off', no option, and 'strict'");
    const comparison = await compareLatency(
      ctx.mode,
      [
        { name: 'none', fn: () => none.tools.execute('echo', body) },
        { name: 'off', fn: () => off.tools.execute('echo', body) },
        { name: 'strict', fn: () => strict.tools.execute('echo', body) },
      ],
      'cpu',
    );
    const offRatio = medianRatio(comparison, 'off', 'none');
    const strictRounds = comparison.roundsMs.get('strict')!;
    const offRounds = comparison.roundsMs.get('off')!;
    const strictUs = median(strictRounds.map((value, i) => (value - offRounds[i]!) * 1000));
    const how = `oz.tools.execute('echo') with fetch: server.fetch; ${ctx.mode.rounds} rounds, process CPU time`;
    return [
      {
        name: FIGURE_NAMES.validateOff,
        ours: formatMs(comparison.medianMs.get('off')!),
        anchor: `no validate option ${formatMs(comparison.medianMs.get('none')!)}`,
        result: formatSpread(offRatio, quartiles(roundRatios(comparison, 'off', 'none'))),
        target: `<= ${OFF_LIMIT.toFixed(2)}`,
        met: judged(ctx.mode.smoke, offRatio <= OFF_LIMIT),
        how: `${how}; median of per-round ratios`,
      },
      {
        name: FIGURE_NAMES.validateStrict,
        ours: formatMs(comparison.medianMs.get('strict')!),
        anchor: `validate off ${formatMs(comparison.medianMs.get('off')!)}`,
        result: `+${strictUs.toFixed(1)} µs/call (${formatSpread(medianRatio(comparison, 'strict', 'off'), quartiles(roundRatios(comparison, 'strict', 'off')))})`,
        target: `<= ${STRICT_LIMIT_US} µs/call`,
        met: judged(ctx.mode.smoke, strictUs <= STRICT_LIMIT_US),
        how: `${how}; median of per-round differences of medians`,
      },
    ];
  } finally {
    await server.close();
  }
}
