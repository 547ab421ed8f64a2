/**
 * The msw mount (issue 47, point 8): 300 sequential `tools.execute` calls through
 * `setupServer(...server.handlers())` against the same calls through a hand-written msw handler that answers the
 * same JSON (`http.post(...)` returning `HttpResponse.json`). Whole runs alternate (hand-written, then the mount),
 * each with its own `setupServer` listening, timed in this process's CPU time (client, msw and server all run
 * here, and the machine is shared); the row is the median of the per-round ratios.
 */
import { median, quartiles } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatSpread, judged, type FigureRow } from '../figureRow.js';

const TARGET = 1.1;
const CALLS = 300;

/** CPU milliseconds per call of `calls` sequential runs of `call`, after a warm-up of a sixth of them. */
async function cpuMsPerCall(calls: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.ceil(calls / 6); i++) await call();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / calls;
}

export async function mswMountRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { Oz } = ctx.modules.sdk;
  const { http, HttpResponse } = await import('msw');
  const { setupServer } = await import('msw/node');
  const server = ctx.modules.testing.createOzServer({ rateLimit: { limit: 1e9 } });
  try {
    const body = { text: 'hello' };
    // The JSON the embedded server answers, as a hand-written handler would hold it.
    const answer = JSON.parse(
      JSON.stringify(await new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }).tools.execute('echo', body)),
    ) as Record<string, unknown>;
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, maxRetries: 0 });
    const calls = ctx.mode.smoke ? 30 : CALLS;
    const run = async (handlers: Parameters<typeof setupServer>): Promise<number> => {
      const msw = setupServer(...handlers);
      msw.listen({ onUnhandledRequest: 'error' });
      try {
        return await cpuMsPerCall(calls, () => oz.tools.execute('echo', body));
      } finally {
        msw.close();
      }
    };
    const hand: number[] = [];
    const mount: number[] = [];
    ctx.log('msw mount: 300 sequential tools.execute through server.handlers() vs a hand-written handler');
    for (let round = 0; round < ctx.mode.rounds; round++) {
      hand.push(await run([http.post(`${server.url}/v1/tools/:tool/execute`, () => HttpResponse.json(answer))]));
      mount.push(await run(server.handlers()));
    }
    const ratios = mount.map((ms, i) => ms / hand[i]!);
    const ratio = median(ratios);
    return [
      {
        name: FIGURE_NAMES.mswMountPerCall,
        ours: `${formatMs(median(mount))}/call`,
        anchor: `hand-written msw handler ${formatMs(median(hand))}/call`,
        result: formatSpread(ratio, quartiles(ratios)),
        target: `<= ${TARGET.toFixed(2)}x`,
        met: judged(ctx.mode.smoke, ratio <= TARGET),
        how: `${calls} sequential oz.tools.execute('echo') calls (plain fetch, msw's setupServer listening) through setupServer(...server.handlers()) vs through http.post(url, () => HttpResponse.json(<the same answer>)); whole runs alternating, each with its own setupServer; ${ctx.mode.rounds} rounds, median of per-round ratios; process CPU time`,
      },
    ];
  } finally {
    await server.close();
  }
}
