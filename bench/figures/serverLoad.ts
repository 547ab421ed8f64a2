/**
 * The embedded server over HTTP under load (issue 18):
 * - 1024 concurrent SDK calls: every call on its own connection at once (the listener's backlog and keep-alive
 *   settings at work); the SDK's fetch is wrapped to count attempts that failed on the network (a closed or
 *   refused connection: what the SDK retries), and the server's journal counts the requests that arrived.
 * - memory under load: the server as `oz-mock` runs it (default retention and journal limits; the rate limit
 *   raised), in a process of its own, loaded by 50 keep-alive connections (25 creating executions, 25 creating
 *   items that walk their pipeline) for a set time: its RSS sampled every second, its heap after a full GC at the
 *   end. `BENCH_MEMORY_SECONDS` sets the time (default 120 s in the full run; the issue's 10 minutes is 600).
 */
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatRatio, judged, type FigureRow } from '../figureRow.js';
import { generateLoad, type LoadRequest } from '../loadGenerator.js';
import { startServerProcess } from '../serverProcess.js';
import { readFileSync } from 'node:fs';

const CONCURRENT = 1024;
/** The heap bound docs/performance.md states for the default limits (50000 finished executions and items, 10000 journal entries). */
export const DOCUMENTED_HEAP_BOUND_MB = 300;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export async function concurrentCallRows(ctx: FigureContext): Promise<FigureRow[]> {
  const rounds = ctx.mode.smoke ? 1 : 3;
  const calls = ctx.mode.smoke ? 64 : CONCURRENT;
  let attempts = 0;
  let networkErrors = 0;
  const errors = new Map<string, number>();
  const counting = (input: Request | string | URL, init?: RequestInit) => {
    attempts++;
    return fetch(input, init).catch((error: unknown) => {
      networkErrors++;
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error);
      errors.set(cause, (errors.get(cause) ?? 0) + 1);
      throw error;
    });
  };
  const oz = new ctx.modules.sdk.Oz({ baseURL: ctx.oz.url, apiKey: ctx.oz.apiKey, fetch: counting });
  let arrived = 0;
  let succeeded = 0;
  for (let round = 0; round < rounds; round++) {
    ctx.log(`concurrent calls: round ${round + 1} of ${rounds}, ${calls} at once`);
    await ctx.oz.ask({ query: 'journalClear' });
    const results = await Promise.allSettled(Array.from({ length: calls }, (_, i) => oz.tools.execute('echo', { text: `call ${i}` })));
    succeeded += results.filter((r) => r.status === 'fulfilled').length;
    arrived += await ctx.oz.ask<number>({ query: 'journalCount', operationId: 'executeTool' });
  }
  const total = rounds * calls;
  const retries = attempts - total;
  return [
    {
      name: FIGURE_NAMES.concurrentCalls,
      ours: `${succeeded}/${total} succeeded; ${networkErrors} attempts failed on the network (${retries} retries)`,
      anchor: `the journal: ${arrived} requests arrived for ${total} calls`,
      result: `${networkErrors} retries from closed connections`,
      target: '0',
      met: judged(ctx.mode.smoke, networkErrors === 0 && succeeded === total && arrived === total),
      how:
        `${rounds} rounds of ${calls} oz.tools.execute('echo') at once over 127.0.0.1 (Node's fetch opens a connection per call in flight); ` +
        `the SDK's fetch wrapped to count attempts and network failures` +
        (errors.size ? ` (${[...errors].map(([m, n]) => `${n}x ${m}`).join('; ')})` : '') +
        `; the server's journal cleared before each round and counted after it`,
    },
  ];
}

export async function memoryUnderLoadRows(ctx: FigureContext): Promise<FigureRow[]> {
  const fromEnv = Number(process.env['BENCH_MEMORY_SECONDS']);
  const seconds = ctx.mode.smoke ? 1 : Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 120;
  const server = await startServerProcess('oz', ctx.pkg.testingSpecifier);
  try {
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
    const runs: LoadRequest = { method: 'POST', path: '/v1/tools/echo/execute', headers, body: JSON.stringify({ text: 'hello' }) };
    const items: LoadRequest = { method: 'POST', path: '/v1/companies/acme/items', headers, body: JSON.stringify({ building: 'hq', title: 'Load item' }) };
    ctx.log(`memory under load: ${seconds} s at 50 connections`);
    const start = rssMb(server.pid);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(server.pid)), 1000);
    const [a, b] = await Promise.all([
      generateLoad(server.url, runs, { connections: 25, seconds }),
      generateLoad(server.url, items, { connections: 25, seconds }),
    ]);
    clearInterval(sampler);
    samples.push(rssMb(server.pid));
    // Let the last items finish their walk, then read the heap after a full collection.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const memory = await server.ask<NodeJS.MemoryUsage>({ query: 'memoryAfterGc' });
    const heapMb = memory.heapUsed / 1024 / 1024;
    const half = samples.slice(Math.floor(samples.length / 2));
    const window = Math.max(1, Math.floor(half.length / 5));
    const early = Math.max(...half.slice(0, window));
    const late = Math.max(...half.slice(-window));
    const growth = late / early;
    const requests = a.ok + b.ok;
    return [
      {
        name: FIGURE_NAMES.memoryUnderLoad,
        ours: `heap ${heapMb.toFixed(0)} MB after GC at the end; RSS ${start.toFixed(0)} MB at the start, ${early.toFixed(0)} MB at half time, ${late.toFixed(0)} MB at the end`,
        anchor: `bound ${DOCUMENTED_HEAP_BOUND_MB} MB (docs/performance.md, default retention)`,
        result: `RSS over the second half ${formatRatio(growth)}; heap ${((heapMb / DOCUMENTED_HEAP_BOUND_MB) * 100).toFixed(0)} % of the bound`,
        target: `heap <= ${DOCUMENTED_HEAP_BOUND_MB} MB; RSS <= 1.10x`,
        met: judged(ctx.mode.smoke, heapMb <= DOCUMENTED_HEAP_BOUND_MB && growth <= 1.1),
        how:
          `${seconds} s${seconds < 600 ? ' (the issue asks 10 minutes: BENCH_MEMORY_SECONDS=600)' : ''} of 50 keep-alive connections against the embedded server in its own process, ` +
          `default retention and journal, rate limit raised: 25 creating executions (echo), 25 creating items that walk their pipeline; ` +
          `${requests.toLocaleString('en')} answers 2xx, ${a.failed + b.failed} other; RSS every second from /proc, the first and last fifth of the second half compared by their peaks`,
      },
    ];
  } finally {
    await server.stop();
  }
}
