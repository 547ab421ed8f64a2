/**
 * How long the benchmarks run: the full run (`npm run bench`) or the smoke run (`--smoke` or `BENCH_SMOKE=1`),
 * which starts every benchmark with tiny counts so CI sees that each one still runs and prints.
 */
export interface BenchMode {
  readonly smoke: boolean;
  /** Rounds of each latency comparison; the contenders' order rotates from round to round. */
  readonly rounds: number;
  /** tinybench's time budget per task and round, in ms. */
  readonly taskMs: number;
  /** tinybench's minimum iterations per task and round. */
  readonly iterations: number;
  /** tinybench's warm-up budget per task and round, in ms. */
  readonly warmupMs: number;
  /** tinybench's warm-up iterations per task and round. */
  readonly warmupIterations: number;
  /** New processes per contender for the cold import. */
  readonly coldRuns: number;
  /** Rounds of the throughput run, and seconds each server is loaded per round. */
  readonly loadRounds: number;
  readonly loadSeconds: number;
  /** Tokens of the SSE benchmark's stream. */
  readonly sseTokens: number;
  /** Megabytes of deltas of the memory benchmark. */
  readonly memoryMegabytes: number;
  /** Runs of `executions.wait`. */
  readonly waitRuns: number;
}

const FULL: BenchMode = {
  smoke: false,
  // Many short rounds rather than a few long ones: on a machine shared with other processes, load comes and goes
  // within seconds, and the median of many per-round ratios shrugs off the rounds it hit.
  rounds: 15,
  taskMs: 300,
  iterations: 10,
  warmupMs: 100,
  warmupIterations: 10,
  coldRuns: 25,
  // The throughput rows: many one-second rounds (a run's rate moves by a third with the load of a shared machine).
  loadRounds: 21,
  loadSeconds: 1,
  sseTokens: 10_000,
  memoryMegabytes: 100,
  waitRuns: 8,
};

const SMOKE: BenchMode = {
  smoke: true,
  rounds: 1,
  taskMs: 10,
  iterations: 3,
  warmupMs: 0,
  warmupIterations: 1,
  coldRuns: 1,
  loadRounds: 1,
  loadSeconds: 0.2,
  sseTokens: 200,
  memoryMegabytes: 1,
  waitRuns: 1,
};

/** The mode the command line (`--smoke`) or the environment (`BENCH_SMOKE=1`) asks for. */
export function benchModeOf(argv: readonly string[], env: NodeJS.ProcessEnv): BenchMode {
  const smoke = argv.includes('--smoke') || (env['BENCH_SMOKE'] !== undefined && env['BENCH_SMOKE'] !== '' && env['BENCH_SMOKE'] !== '0');
  return smoke ? SMOKE : FULL;
}
