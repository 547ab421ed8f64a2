/**
 * `executions.wait` latency: how long after a run finishes the wait resolves, against the poll interval in effect.
 * Runs of the `slow` tool (`async: true`) of staggered lengths, so the end falls at every phase of the polling;
 * the SDK's defaults (the record's `Retry-After: 1` replaces the 500 ms client interval, as the contract says).
 * The latency is the wait's resolution less the record's `finished_at` (the server's clock: the same machine
 * clock, ms resolution); the interval of a run is the time between its last two polls (`onProgress`).
 */
import type { Oz } from '../../src/index.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { median } from '../latencyComparison.js';

interface WaitSample {
  readonly latencyMs: number;
  readonly intervalMs: number;
}

async function sampleWait(oz: Oz, runMs: number): Promise<WaitSample> {
  const pointer = await oz.tools.execute('slow', { ms: runMs, async: true });
  const polls: number[] = [];
  const result = await oz.executions.wait(pointer, { onProgress: () => void polls.push(Date.now()) });
  const resolvedAt = Date.now();
  const record = await oz.executions.get(result.execution_id);
  if (record.status !== 'succeeded' || !record.finished_at) throw new Error(`slow run ended ${record.status}`);
  if (polls.length < 2) throw new Error(`a ${runMs} ms run was finished at the first poll: no interval to compare with`);
  return { latencyMs: resolvedAt - Date.parse(record.finished_at), intervalMs: polls.at(-1)! - polls.at(-2)! };
}

export async function executionWaitRows(ctx: FigureContext): Promise<FigureRow[]> {
  const oz = new ctx.modules.sdk.Oz({ baseURL: ctx.oz.url, apiKey: ctx.oz.apiKey });
  const runs = ctx.mode.waitRuns;
  // Lengths spread over one 1 s interval (plus a first poll that must still see the run going).
  const lengths = Array.from({ length: runs }, (_, i) => 200 + Math.round((i * 1000) / runs));
  ctx.log(`executions.wait: ${runs} slow runs of ${lengths.join(', ')} ms, waited concurrently`);
  const samples = await Promise.all(lengths.map((ms) => sampleWait(oz, ms)));
  const ratios = samples.map((s) => s.latencyMs / s.intervalMs);
  const worst = Math.max(...ratios);
  const latencies = samples.map((s) => s.latencyMs);
  return [
    {
      name: FIGURE_NAMES.executionWait,
      ours: `median ${formatMs(median(latencies))}, max ${formatMs(Math.max(...latencies))} after finished_at`,
      anchor: `poll interval ${formatMs(median(samples.map((s) => s.intervalMs)))} (Retry-After: 1)`,
      result: `max ${formatRatio(worst)} of an interval (median ${formatRatio(median(ratios))})`,
      target: '<= 1 interval',
      met: judged(ctx.mode.smoke, worst <= 1),
      how: `${runs} async runs of the slow tool (${lengths[0]}-${lengths.at(-1)} ms), client.executions.wait with its defaults (the record's Retry-After: 1 replaces the 500 ms interval), over 127.0.0.1`,
    },
  ];
}
