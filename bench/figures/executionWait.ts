/**
 * `executions.wait` latency: how long after a run finishes the wait resolves, against the poll interval in effect.
 * Runs of the `slow` tool (`async: true`) of staggered lengths, so the end falls at every phase of the polling;
 * the SDK's defaults (the record's `retry-after-ms`, the server's own timing, replaces the client's interval, as the
 * contract says). A second row times the whole wait for a 20 ms run (issue 14: well under 100 ms of wall time).
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

const SHORT_RUN_MS = 20;
const SHORT_TARGET_MS = 100;

/** The wall time of `tools.execute('slow', { ms: 20, async: true })` then `executions.wait()`, one at a time. */
async function shortWaitRow(ctx: FigureContext, oz: Oz): Promise<FigureRow> {
  const rounds = ctx.mode.smoke ? 2 : 25;
  const walls: number[] = [];
  const polls: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let count = 0;
    const start = performance.now();
    const pointer = await oz.tools.execute('slow', { ms: SHORT_RUN_MS, async: true });
    const result = await oz.executions.wait(pointer, { onProgress: () => void count++ });
    walls.push(performance.now() - start);
    polls.push(count);
    if (result.content !== `Waited ${SHORT_RUN_MS} ms.`) throw new Error(`the 20 ms run answered ${result.content}`);
  }
  const typical = median(walls);
  return {
    name: FIGURE_NAMES.executionWait20ms,
    ours: `median ${formatMs(typical)}, max ${formatMs(Math.max(...walls))} (median ${median(polls)} polls)`,
    anchor: `the run itself: ${SHORT_RUN_MS} ms after a ${10} ms queue step`,
    result: `median ${formatMs(typical)}`,
    target: `< ${SHORT_TARGET_MS} ms`,
    met: judged(ctx.mode.smoke, typical < SHORT_TARGET_MS),
    how: `${rounds} times in a row: the 202 of an async run of the slow tool (${SHORT_RUN_MS} ms) and executions.wait with the SDK's defaults, wall time of both, over 127.0.0.1 (the record's retry-after-ms, floored at the SDK's 50 ms)`,
  };
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
      anchor: `poll interval ${formatMs(median(samples.map((s) => s.intervalMs)))} (the record's retry-after-ms)`,
      result: `max ${formatRatio(worst)} of an interval (median ${formatRatio(median(ratios))})`,
      target: '<= 1 interval',
      met: judged(ctx.mode.smoke, worst <= 1),
      how: `${runs} async runs of the slow tool (${lengths[0]}-${lengths.at(-1)} ms), client.executions.wait with its defaults (the record's retry-after-ms replaces the 500 ms interval), over 127.0.0.1`,
    },
    await shortWaitRow(ctx, oz),
  ];
}
