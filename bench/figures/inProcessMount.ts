/**
 * The in-process mount: the SDK calling the embedded server through `server.fetch` (no socket), against the same
 * request handed to the server's handler directly (`server.handle(new Request(...))`, the answer parsed as
 * JSON). The difference of the medians is what the SDK and the mount add to each call. Timed in this process's
 * CPU time (see `BenchClock`): client and server both run here, and the machine is shared.
 */
import { compareLatency, median } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, judged, type FigureRow } from '../figureRow.js';

const LIMIT_US = 20;

export async function inProcessMountRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Oz } = ctx.modules.sdk;
  const server = ctx.modules.testing.createOzServer({ rateLimit: { limit: 1e9 } });
  try {
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
    const body = { text: 'hello' };
    const target = `${server.url}/v1/tools/echo/execute`;
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
    ctx.log('in-process: tools.execute through server.fetch vs server.handle');
    const comparison = await compareLatency(ctx.mode, [
      { name: 'sdk', fn: () => oz.tools.execute('echo', body) },
      {
        name: 'handler',
        fn: async () => {
          const response = await server.handle(new Request(target, { method: 'POST', headers, body: JSON.stringify(body) }));
          if (!response.ok) throw new Error(`handler answered ${response.status}`);
          return response.json();
        },
      },
      {
        // Not an anchor: the same request through server.fetch with a fresh AbortSignal, as every SDK call sends
        // one (for its per-attempt timeout). What the signal alone costs is this less the handler's time.
        name: 'signal',
        fn: async () => {
          const response = await server.fetch(target, { method: 'POST', headers, body: JSON.stringify(body), signal: new AbortController().signal });
          if (!response.ok) throw new Error(`server.fetch answered ${response.status}`);
          return response.json();
        },
      },
    ], 'cpu');
    const overUs = (name: string) => {
      const handler = comparison.roundsMs.get('handler')!;
      return median(comparison.roundsMs.get(name)!.map((value, i) => (value - handler[i]!) * 1000));
    };
    const overheadUs = overUs('sdk');
    const signalUs = overUs('signal');
    return [
      {
        name: FIGURE_NAMES.inProcessMount,
        ours: formatMs(comparison.medianMs.get('sdk')!),
        anchor: `server.handle ${formatMs(comparison.medianMs.get('handler')!)} (server.fetch with an AbortSignal: +${signalUs.toFixed(1)} µs)`,
        result: `${overheadUs.toFixed(1)} µs/call`,
        target: `<= ${LIMIT_US} µs/call`,
        met: judged(ctx.mode.smoke, overheadUs <= LIMIT_US),
        how: `oz.tools.execute('echo') with fetch: server.fetch, minus the same request to server.handle; the SDK's own part is the overhead less what passing any AbortSignal costs (measured beside it); ${ctx.mode.rounds} rounds, median of per-round differences of medians; process CPU time`,
      },
    ];
  } finally {
    await server.close();
  }
}
