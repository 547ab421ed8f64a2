/**
 * What OpenTelemetry costs a call when tracing is off: the same `tools.execute` over loopback HTTP with
 * `@opentelemetry/api` loaded and a context manager registered but no tracer provider ("tracing off", what an
 * application that has the API but does not trace sees) against a process with no OpenTelemetry registration at
 * all ("no tracing"). Both contenders run in the same rounds; each sets its registration before its call.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { compareLatency, medianRatio, quartiles, roundRatios, type Contender } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatSpread, judged, type FigureRow } from '../figureRow.js';

const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

export async function tracingCostRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { url, apiKey } = ctx.oz;
  const oz = new ctx.modules.sdk.Oz({ baseURL: url, apiKey });
  const body = { text: 'hello' };
  const holder = globalThis as { [API_GLOBAL]?: unknown };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const registered = holder[API_GLOBAL];
  if (registered === undefined) throw new Error('@opentelemetry/api registered nothing on its global');
  ctx.log('tracing: tools.execute with tracing off (API loaded, no tracer provider) vs no OpenTelemetry at all');
  try {
    const comparison = await compareLatency(ctx.mode, [
      {
        name: 'off',
        fn: () => {
          holder[API_GLOBAL] = registered;
          return oz.tools.execute('echo', body);
        },
      },
      {
        name: 'none',
        fn: () => {
          delete holder[API_GLOBAL];
          return oz.tools.execute('echo', body);
        },
      },
    ] satisfies Contender[]);
    const ratio = medianRatio(comparison, 'off', 'none');
    const limit = 1.05;
    return [
      {
        name: FIGURE_NAMES.tracingOff,
        ours: formatMs(comparison.medianMs.get('off')!),
        anchor: `no tracing ${formatMs(comparison.medianMs.get('none')!)}`,
        result: formatSpread(ratio, quartiles(roundRatios(comparison, 'off', 'none'))),
        target: `<= ${limit.toFixed(2)}`,
        met: judged(ctx.mode.smoke, ratio <= limit),
        how: `POST /v1/tools/echo/execute over 127.0.0.1; ${ctx.mode.rounds} rounds, median of per-round ratios`,
      },
    ];
  } finally {
    holder[API_GLOBAL] = registered;
    context.disable();
  }
}
