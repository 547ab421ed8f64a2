/**
 * The embedded server over HTTP: requests per second for items create and tool execute, against a bare hono app on
 * @hono/node-server answering a fixed JSON, each server in a fresh process of its own (one core), loaded by the raw-socket
 * load generator of `loadGenerator.ts` in this process (the other core) with several keep-alive connections for
 * a bounded time. Rounds rotate the order of the three runs; the figure is the median of per-round ratios.
 *
 * On a machine shared with other work the rate of one short run moves by a third from round to round (load comes
 * and goes within seconds): many one-second rounds after a warm-up of two seconds per server, so that the median
 * of the per-round ratios is made of pairs measured seconds apart. The CPU time each server process spent per
 * answer is shown beside the rates: it moves less with the machine's load, and tells whether a change of the
 * rate is the server's (c733909 against the main of 2026-11-23: 0.64-0.74x and 0.64-0.71x of hono's rate for
 * tools.execute in alternating A/B runs, 97 and 86 µs of CPU per answer: the drop the rows showed was noise).
 */
import { generateLoad, type LoadRequest } from '../loadGenerator.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatSpread, judged, type FigureRow } from '../figureRow.js';
import { median, quartiles } from '../latencyComparison.js';
import { startServerProcess } from '../serverProcess.js';

const LIMIT = 0.6;
const CONNECTIONS = 8;

export async function serverThroughputRows(ctx: FigureContext): Promise<FigureRow[]> {
  const hono = await startServerProcess('hono');
  // The embedded server in a fresh process of its own, as the bare app is: the shared one (ctx.oz) carries what the
  // figures before this one did to it, so its rate depended on which figures ran first (in one run of the five
  // figures before it, 0.53x and 0.62x against 0.68x and 0.70x alone: bench/findings.md).
  const oz = await startServerProcess('oz', ctx.pkg.testingSpecifier);
  try {
    const headers = { authorization: `Bearer ${oz.apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
    const toolRequest: LoadRequest = { method: 'POST', path: '/v1/tools/echo/execute', headers, body: JSON.stringify({ text: 'hello' }) };
    const runs = [
      { name: 'hono', server: hono, url: hono.url, request: toolRequest },
      {
        name: 'items',
        server: oz,
        url: oz.url,
        request: { ...toolRequest, path: '/v1/companies/acme/items', body: JSON.stringify({ building: 'hq', title: 'Load item' }) },
      },
      { name: 'tools', server: oz, url: oz.url, request: toolRequest },
    ];
    const seconds = ctx.mode.loadSeconds;
    ctx.log(`throughput: ${ctx.mode.loadRounds} rounds of ${seconds} s per server, ${CONNECTIONS} keep-alive connections`);
    // Warm-up: the servers' code paths get compiled, and their heaps grown, before anything is counted.
    for (const run of runs) await generateLoad(run.url, run.request, { connections: CONNECTIONS, seconds: Math.min(2 * seconds, 2) });
    const rates = new Map<string, number[]>(runs.map((run) => [run.name, []]));
    const cpuPerAnswer = new Map<string, number[]>(runs.map((run) => [run.name, []]));
    for (let round = 0; round < ctx.mode.loadRounds; round++) {
      const shift = round % runs.length;
      for (const run of [...runs.slice(shift), ...runs.slice(0, shift)]) {
        const cpuBefore = run.server.cpuMs();
        const result = await generateLoad(run.url, run.request, { connections: CONNECTIONS, seconds });
        const cpuAfter = run.server.cpuMs();
        if (result.failed > 0 || result.ok === 0) throw new Error(`${run.name}: ${result.ok} answers 2xx, ${result.failed} other`);
        rates.get(run.name)!.push(result.perSecond);
        if (cpuBefore !== undefined && cpuAfter !== undefined) cpuPerAnswer.get(run.name)!.push(((cpuAfter - cpuBefore) * 1000) / result.ok);
      }
    }
    /** The median CPU time per answer of a run, as a label ('' without /proc). */
    const cpuOf = (name: string) => {
      const spent = cpuPerAnswer.get(name)!;
      return spent.length === 0 ? '' : `, ${Math.round(median(spent))} µs CPU per answer`;
    };
    const bare = rates.get('hono')!;
    const row = (name: string, what: string, key: string): FigureRow => {
      const ours = rates.get(key)!;
      const ratios = ours.map((rate, i) => rate / bare[i]!);
      const ratio = median(ratios);
      return {
        name,
        ours: `${Math.round(median(ours)).toLocaleString('en')} req/s${cpuOf(key)}`,
        anchor: `bare hono ${Math.round(median(bare)).toLocaleString('en')} req/s${cpuOf('hono')}`,
        result: `${formatSpread(ratio, quartiles(ratios))} of its rate`,
        target: `>= ${LIMIT.toFixed(2)}`,
        met: judged(ctx.mode.smoke, ratio >= LIMIT),
        how:
          `${what}; ${CONNECTIONS} keep-alive connections, after a warm-up of ${Math.min(2 * seconds, 2)} s per server ${ctx.mode.loadRounds} rounds of ${seconds} s (the order rotating), ` +
          `the median of per-round ratios (quartiles in brackets); each server (started fresh for this figure) ` +
          `and the load generator in processes of their own; the bare hono app runs on @hono/node-server's serve() with its defaults, answering a fixed JSON; ` +
          `CPU per answer: each server process's user + system time over a run (/proc) by its answers, the median of the rounds (it moves less with the machine's load than a rate)`,
      };
    };
    return [
      row(FIGURE_NAMES.serverItems, 'POST /v1/companies/acme/items (building hq)', 'items'),
      row(FIGURE_NAMES.serverTools, 'POST /v1/tools/echo/execute', 'tools'),
    ];
  } finally {
    await Promise.all([hono.stop(), oz.stop()]);
  }
}
