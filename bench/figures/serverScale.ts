/**
 * The embedded server at scale (issue 18), each size in a process of its own (`scaleWorker.ts`, a fresh heap),
 * timed in rounds. The list and idle() rows keep the sizes compared alive side by side and alternate rounds
 * between them (load on a shared machine comes and goes within seconds and then hits every size alike): their
 * figures are medians of per-round ratios.
 * - list pages at 10k, 100k and 1M executions and items: the first page and a page deep in the list (the cursor
 *   of the middle row), plain and under filters; the 1M page against the 10k page of the same route. Both workers
 *   are brought to a steady state (warm-up blocks until the medians stop moving), then rounds alternate, each a
 *   median of many calls;
 * - `restore()` and `snapshot()` of those records, and how they grow per 10x of records: each size alone (beside
 *   a live 1M worker a smaller size's restore took twice as long), after a warm-up, rounds of one restore() and
 *   one snapshot(), each timed after a forced GC (timed once per size per process, the growth swung between 4x
 *   and 17x); the growth is the ratio of the sizes' medians; beside them the engine's own `new Map(map)` of as
 *   many ids, the floor of any copy that keeps a Map by id;
 * - `server.idle()` with 4k to 32k async runs queued on a frozen clock: the time at 32k, and the growth of the
 *   time per run from one doubling to the next (linear: 1.0x; quadratic: 2.0x), in rounds as above (the server
 *   reset between rounds).
 * Records get in through snapshot/restore (the API would take minutes for a million); see the worker.
 */
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, formatSpread, judged, type FigureRow } from '../figureRow.js';
import { median, quartiles } from '../latencyComparison.js';
import type { IdleRound, ListAnswer, ListQuery, ListRoute, RoundQuery, SnapshotRound } from '../scaleWorker.js';
import { alternateRounds, startScaleWorker, type ScaleWorker } from '../scaleWorkerProcess.js';

/** The page routes the worker times, with their names in the table. */
const PAGES = {
  executionsFirst: 'executions first page',
  executionsDeep: 'executions deep page',
  executionsFilteredDeep: 'executions deep page, status=failed&kind=tool',
  itemsFirst: 'items first page',
  itemsDeep: 'items deep page',
  itemsFilteredDeep: 'items deep page, building=lab&status=done',
} as const;

type ListWorker = ScaleWorker<ListQuery, ListAnswer>;

const ROUTES: readonly ListRoute[] = ['executionsFirst', 'executionsDeep', 'executionsFilteredDeep', 'itemsFirst', 'itemsDeep', 'itemsFilteredDeep'];

/** A route's figures at one size against the smallest: the per-round ratios, and each side's per-round medians. */
interface Compared {
  readonly ratios: number[];
  readonly ms: number[];
  readonly smallMs: number[];
}

/**
 * Rounds alternating between the small worker and a larger one (who goes first swaps every round), each a median
 * of `calls` calls of the route, after both reached a steady state.
 */
async function compareSizes(small: ListWorker, large: ListWorker, rounds: number, calls: number): Promise<Record<ListRoute, Compared>> {
  await small.ask({ warm: true });
  await large.ask({ warm: true });
  const out = Object.fromEntries(ROUTES.map((route) => [route, { ratios: [], ms: [], smallMs: [] }])) as unknown as Record<ListRoute, Compared>;
  for (let round = 0; round < rounds; round++) {
    for (const route of ROUTES) {
      const order = round % 2 === 0 ? [small, large] : [large, small];
      const times = new Map<ListWorker, number>();
      for (const worker of order) times.set(worker, (await worker.ask({ route, calls })).ms!);
      const figures = out[route];
      figures.ms.push(times.get(large)!);
      figures.smallMs.push(times.get(small)!);
      figures.ratios.push(times.get(large)! / times.get(small)!);
    }
  }
  return out;
}

const short = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

export async function serverScaleRows(ctx: FigureContext): Promise<FigureRow[]> {
  const sizes = ctx.mode.smoke ? [1000, 2000] : [10_000, 100_000, 1_000_000];
  // Rounds and calls per round: on a shared machine load comes and goes within seconds; many short rounds, each
  // a median of its calls (a major collection of the 1M heap lands in a few calls, not in the median).
  const rounds = ctx.mode.smoke ? 1 : 101;
  const calls = ctx.mode.smoke ? 5 : 61;
  ctx.log(`server scale: ${sizes[0]!.toLocaleString('en')} executions and items`);
  const small: ListWorker = await startScaleWorker(ctx.pkg.testingSpecifier, 'lists', sizes[0]!);
  const ready: ListWorker[] = [small];
  const compared: Array<Record<ListRoute, Compared>> = [];
  try {
    for (const size of sizes.slice(1)) {
      ctx.log(`server scale: ${size.toLocaleString('en')} executions and items beside the ${sizes[0]!.toLocaleString('en')}, ${rounds} alternating rounds`);
      const large: ListWorker = await startScaleWorker(ctx.pkg.testingSpecifier, 'lists', size);
      try {
        ready.push(large);
        compared.push(await compareSizes(small, large, rounds, calls));
      } finally {
        await large.stop();
      }
    }
  } finally {
    await small.stop();
  }
  const largest = compared.at(-1)!;
  const smallest = ready[0]!;
  const largestReady = ready.at(-1)!;
  /** The route's time per size, each larger one with its median per-round ratio to the smallest beside it. */
  const curve = (route: ListRoute) =>
    [
      `${short(smallest.records)} ${formatMs(median(largest[route].smallMs))}`,
      ...compared.map((c, i) => `${short(ready[i + 1]!.records)} ${formatMs(median(c[route].ms))} (${formatRatio(median(c[route].ratios))})`),
    ].join(', ');
  const rows: FigureRow[] = (['executionsFirst', 'executionsDeep', 'itemsFirst', 'itemsDeep'] as const).map((key) => {
    const filtered = key.replace('Deep', 'FilteredDeep') as ListRoute;
    const ratios = largest[key].ratios;
    const ratio = median(ratios);
    const filteredRatios = key.endsWith('Deep') ? largest[filtered].ratios : undefined;
    const filteredRatio = filteredRatios && median(filteredRatios);
    const worst = Math.max(ratio, filteredRatio ?? 0);
    return {
      name: FIGURE_NAMES[`scale_${key}`],
      ours: `${formatMs(median(largest[key].ms))} at ${short(largestReady.records)}`,
      anchor: `${formatMs(median(largest[key].smallMs))} at ${short(smallest.records)} (same route)`,
      result: `${formatSpread(ratio, quartiles(ratios))}${filteredRatios === undefined ? '' : `; filtered ${formatSpread(filteredRatio!, quartiles(filteredRatios))}`}`,
      target: '<= 2.00',
      met: judged(ctx.mode.smoke, worst <= 2),
      how:
        `GET of 20 rows through server.handle; each size in a process of its own, the ${short(smallest.records)} one beside each larger one, both ` +
        `warmed to a steady state (blocks of 100 calls per route until no median moves by more than 5 %), then ${rounds} rounds alternating ` +
        `between them, each the median of ${calls} calls; the median of the per-round ratios (quartiles in brackets); ${PAGES[key]}: ${curve(key)}` +
        (filteredRatios === undefined ? '' : `; ${PAGES[filtered]}: ${curve(filtered)}`),
    };
  });

  return rows;
}

/** Ratios of each size's figure to the size before it, one per round: `[size][round]`. */
function growthByRound(bySize: number[][]): number[][] {
  return bySize.slice(1).map((times, i) => times.map((t, round) => t / bySize[i]![round]!));
}

/** The median per-round growth of each step, with its quartiles. */
const spreadText = (growth: number[][]) => growth.map((g) => formatSpread(median(g), quartiles(g))).join(', ');

/** How one size's rounds read: its median and its range. */
const spreadMs = (times: number[]) => `${formatMs(median(times))} (${formatMs(Math.min(...times))}-${formatMs(Math.max(...times))})`;

export async function snapshotGrowthRows(ctx: FigureContext): Promise<FigureRow[]> {
  const sizes = ctx.mode.smoke ? [1000, 10_000] : [10_000, 100_000, 1_000_000];
  // A round at 1M is a restore, a snapshot and a Map copy of seconds each: 9 rounds keep the row near 4 minutes.
  const rounds = ctx.mode.smoke ? 1 : 9;
  ctx.log(`snapshot/restore: ${sizes.map((n) => n.toLocaleString('en')).join(', ')} executions and items, one size at a time, ${rounds} rounds each`);
  // One size at a time: beside a live 1M worker (quiet, its garbage collected) a 100k restore took twice as long
  // as alone, so the sizes are not kept alive side by side as the list rows' are.
  const answers: SnapshotRound[][] = [];
  for (const size of sizes) {
    const worker = await startScaleWorker<RoundQuery, SnapshotRound>(ctx.pkg.testingSpecifier, 'snapshot', size);
    try {
      answers.push((await alternateRounds([worker], rounds, { round: true }))[0]!);
    } finally {
      await worker.stop();
    }
  }
  const of = (key: keyof SnapshotRound) => answers.map((rows) => rows.map((r) => r[key]));
  // The sizes ran one after the other, so their rounds do not pair up: the growth is the ratio of their medians.
  const growth = (key: keyof SnapshotRound) =>
    of(key)
      .slice(1)
      .map((times, i) => median(times) / median(of(key)[i]!));
  const growthText = (key: keyof SnapshotRound) => growth(key).map(formatRatio).join(', ');
  const worst = Math.max(...growth('restoreMs'), ...growth('snapshotMs'));
  const curve = (key: keyof SnapshotRound) => sizes.map((n, i) => `${short(n)} ${spreadMs(of(key)[i]!)}`).join(', ');
  const last = sizes.length - 1;
  return [
    {
      name: FIGURE_NAMES.scaleSnapshot,
      ours: `restore ${formatMs(median(of('restoreMs')[last]!))}, snapshot ${formatMs(median(of('snapshotMs')[last]!))} at ${short(sizes[last]!)} executions + ${short(sizes[last]!)} items`,
      anchor: `at ${short(sizes[0]!)}: restore ${formatMs(median(of('restoreMs')[0]!))}, snapshot ${formatMs(median(of('snapshotMs')[0]!))}; new Map(map) per 10x: ${growthText('mapCopyMs')}`,
      result: `per 10x of records: restore ${growthText('restoreMs')}; snapshot ${growthText('snapshotMs')}`,
      target: '<= 12x per 10x (linear)',
      met: judged(ctx.mode.smoke, worst <= 12),
      how:
        `server.restore() of a snapshot holding the records, then server.snapshot(), each size in a process of its own, one after the other; ` +
        `after one untimed restore+snapshot, ${rounds} rounds, each one restore(), one snapshot() and one new Map(map), each after a forced GC, the ` +
        `process quiet again before the next round; per 10x: the ratio of the sizes' medians; median (range) of the rounds: restore ${curve('restoreMs')}; ` +
        `snapshot ${curve('snapshotMs')}; the anchor, new Map(map) of a Map of as many execution ids in the same workers: ${curve('mapCopyMs')}`,
    },
  ];
}

export async function idleGrowthRows(ctx: FigureContext): Promise<FigureRow[]> {
  const counts = ctx.mode.smoke ? [500, 1000] : [4000, 8000, 16_000, 32_000];
  const rounds = ctx.mode.smoke ? 1 : 15;
  ctx.log(`idle(): ${counts.map((n) => n.toLocaleString('en')).join(', ')} queued async runs, ${rounds} alternating rounds`);
  const workers: Array<ScaleWorker<RoundQuery, IdleRound>> = [];
  let answers: IdleRound[][];
  try {
    for (const runs of counts) workers.push(await startScaleWorker(ctx.pkg.testingSpecifier, 'idle', runs));
    answers = await alternateRounds(workers, rounds, { round: true });
  } finally {
    for (const worker of workers) await worker.stop();
  }
  const idleMs = answers.map((rows) => rows.map((r) => r.idleMs));
  const perRun = idleMs.map((times, i) => times.map((t) => t / counts[i]!));
  const growth = growthByRound(perRun);
  const lastMs = median(idleMs.at(-1)!);
  return [
    {
      name: FIGURE_NAMES.scaleIdle,
      ours: `${formatMs(lastMs)} for ${counts.at(-1)!.toLocaleString('en')} runs`,
      anchor: `${formatMs(median(idleMs[0]!))} for ${counts[0]!.toLocaleString('en')} runs`,
      result: `time per run per doubling: ${spreadText(growth)}`,
      target: '< 2 s at 32k; <= 1.50x per doubling',
      met: judged(ctx.mode.smoke, lastMs < 2000 && Math.max(...growth.map(median)) <= 1.5),
      how:
        `async echo runs queued through server.handle on a frozen clock, then server.idle() timed after a forced GC, then a reset (untimed); each count in a ` +
        `process of its own (1000 runs queued and idled first as warm-up), the four alive side by side; ${rounds} rounds, the counts' order rotating ` +
        `each round; per doubling: the median of the per-round ratios of the time per run (quartiles in brackets); median (range) of the rounds: ` +
        counts.map((n, i) => `${short(n)} ${spreadMs(idleMs[i]!)}`).join(', '),
    },
  ];
}
