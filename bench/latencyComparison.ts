import { Bench, type TimestampProvider } from 'tinybench';
import type { BenchMode } from './benchMode.js';

/** One of the functions compared: one call of it is one sample. */
export interface Contender {
  readonly name: string;
  readonly fn: () => Promise<unknown>;
}

/** What a comparison found, per contender: the median over the rounds of each round's median latency. */
export interface LatencyComparison {
  /** Milliseconds per call, by contender name. */
  readonly medianMs: ReadonlyMap<string, number>;
  /** Every round's median, by contender name (for the ratios of one round). */
  readonly roundsMs: ReadonlyMap<string, readonly number[]>;
  /** Samples taken, by contender name, over all rounds. */
  readonly samples: ReadonlyMap<string, number>;
}

/**
 * How a sample is timed. `wall`: elapsed time (`performance.now`), for calls that wait on another process.
 * `cpu`: this process's CPU time (user + system, `process.cpuUsage()`), for work done entirely in this process:
 * on a machine shared with other processes, the time this process is not scheduled does not count.
 */
export type BenchClock = 'wall' | 'cpu';

const CPU_CLOCK: TimestampProvider = {
  name: 'process.cpuUsage',
  fn: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  },
  toMs: (value) => Number(value),
  fromMs: (value) => value,
};

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs the contenders side by side with tinybench: `mode.rounds` rounds, each one a fresh `Bench` with a warm-up,
 * `mode.taskMs` and at least `mode.iterations` samples per contender; the order of the contenders rotates from
 * round to round, so a slow drift of the machine (another process, a GC, the server's growing state) falls on
 * all of them alike. Each contender is called once before the first round, so a broken one fails at once.
 */
export async function compareLatency(mode: BenchMode, contenders: readonly Contender[], clock: BenchClock = 'wall'): Promise<LatencyComparison> {
  for (const c of contenders) await c.fn();
  const rounds = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const samples = new Map<string, number>(contenders.map((c) => [c.name, 0]));
  for (let round = 0; round < mode.rounds; round++) {
    const bench = new Bench({
      time: mode.taskMs,
      iterations: mode.iterations,
      warmup: true,
      warmupTime: mode.warmupMs,
      warmupIterations: mode.warmupIterations,
      throws: true,
      ...(clock === 'cpu' ? { timestampProvider: CPU_CLOCK } : {}),
    });
    const shift = round % contenders.length;
    for (const c of [...contenders.slice(shift), ...contenders.slice(0, shift)]) bench.add(c.name, c.fn, { async: true });
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`Benchmark task ${task.name} did not complete: ${result.state}`);
      rounds.get(task.name)!.push(result.latency.p50);
      samples.set(task.name, samples.get(task.name)! + result.latency.samplesCount);
    }
  }
  return {
    medianMs: new Map([...rounds].map(([name, values]) => [name, median(values)])),
    roundsMs: rounds,
    samples,
  };
}

/** The first and third quartiles of `values`: how much the rounds disagree. */
export function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const pos = (sorted.length - 1) * q;
    const low = Math.floor(pos);
    return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (pos - low);
  };
  return [at(0.25), at(0.75)];
}

/** The per-round ratios `a / b`. */
export function roundRatios(comparison: LatencyComparison, a: string, b: string): number[] {
  const bs = comparison.roundsMs.get(b) ?? [];
  return (comparison.roundsMs.get(a) ?? []).map((value, i) => value / bs[i]!);
}

/** The median over the rounds of `a / b`, each ratio taken within one round. */
export function medianRatio(comparison: LatencyComparison, a: string, b: string): number {
  return median(roundRatios(comparison, a, b));
}
