/**
 * The in-process mount: the SDK calling the embedded server through `server.fetch` (no socket), against the
 * cheapest direct in-process call of the same request: `server.handle(new Request(...))` and
 * `server.fetch(url, init)` (no signal), each answer parsed as JSON; per round the cheaper of the two is the
 * anchor. The difference is what the SDK adds to each call, its AbortSignal included (the mount arms no abort
 * listener for an answer that waits on nothing, so passing a signal costs the server next to nothing). Timed in
 * this process's CPU time (see `BenchClock`): client and server both run here, and the machine is shared.
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
    const parsed = async (response: Response, what: string): Promise<unknown> => {
      if (!response.ok) throw new Error(`${what} answered ${response.status}`);
      return response.json();
    };
    ctx.log('in-process: tools.execute through the SDK vs server.handle and server.fetch');
    const comparison = await compareLatency(
      ctx.mode,
      [
        { name: 'sdk', fn: () => oz.tools.execute('echo', body) },
        {
          name: 'handle',
          fn: async () => parsed(await server.handle(new Request(target, { method: 'POST', headers, body: JSON.stringify(body) })), 'server.handle'),
        },
        { name: 'fetch', fn: async () => parsed(await server.fetch(target, { method: 'POST', headers, body: JSON.stringify(body) }), 'server.fetch') },
      ],
      'cpu',
    );
    const rounds = (name: string) => comparison.roundsMs.get(name)!;
    const cheapest = rounds('handle').map((value, i) => Math.min(value, rounds('fetch')[i]!));
    const overheadUs = median(rounds('sdk').map((value, i) => (value - cheapest[i]!) * 1000));
    const ms = (name: string) => formatMs(comparison.medianMs.get(name)!);
    return [
      {
        name: FIGURE_NAMES.inProcessMount,
        ours: ms('sdk'),
        anchor: `cheapest direct call ${formatMs(median(cheapest))} (server.handle ${ms('handle')}, server.fetch ${ms('fetch')})`,
        result: `${overheadUs.toFixed(1)} µs/call`,
        target: `<= ${LIMIT_US} µs/call`,
        met: judged(ctx.mode.smoke, overheadUs <= LIMIT_US),
        how: `oz.tools.execute('echo') with fetch: server.fetch (the SDK's own AbortSignal included), minus the cheaper of server.handle(new Request(...)) and server.fetch(url, init) with the same request and the answer parsed as JSON, taken per round; ${ctx.mode.rounds} rounds, median of per-round differences of medians; process CPU time`,
      },
    ];
  } finally {
    await server.close();
  }
}
