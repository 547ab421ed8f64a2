/**
 * The embedded server at scale (issue 18), each size in a process of its own (`scaleWorker.ts`, a fresh heap):
 * - list pages at 10k, 100k and 1M executions and items: the first page and a page deep in the list (the cursor
 *   of the middle row), plain and under filters; the 1M page against the 10k page of the same route. The 10k
 *   worker lives while each larger one runs beside it: both are brought to a steady state (warm-up blocks until
 *   the medians stop moving), then rounds alternate between them (the order swapping each round), each a median
 *   of many calls; the figure is the median of the per-round ratios (two fresh processes of the same size, timed
 *   once each, differed by half);
 * - `restore()` and `snapshot()` of those records (the median of 5 rounds after a warm-up, each after a full GC),
 *   and how they grow per 10x of records;
 * - `server.idle()` with 4k to 32k async runs queued on a frozen clock (the median of 3 rounds): the time at 32k, and the growth of the
 *   time per run from one doubling to the next (linear: 1.0x; quadratic: 2.0x).
 * Records get in through snapshot/restore (the API would take minutes for a million); see the worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, formatSpread, judged, type FigureRow } from '../figureRow.js';
import { median, quartiles } from '../latencyComparison.js';
import type { ListQuery, ListRoute, ListsReady } from '../scaleWorker.js';

const WORKER = fileURLToPath(new URL('../scaleWorker.ts', import.meta.url));

/** The page routes the worker times, with their names in the table. */
const PAGES = {
  executionsFirst: 'executions first page',
  executionsDeep: 'executions deep page',
  executionsFilteredDeep: 'executions deep page, status=failed&kind=tool',
  itemsFirst: 'items first page',
  itemsDeep: 'items deep page',
  itemsFilteredDeep: 'items deep page, building=lab&status=done',
} as const;

/** Runs the `idle` worker once and answers its JSON line. */
export function runScaleWorker<T>(testingSpecifier: string, kind: 'idle', count: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--import', 'tsx', WORKER, kind, testingSpecifier, String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) reject(new Error(`scale worker ${kind} ${count} exited with ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

/** A `lists` worker holding `records` executions and items, timing pages when asked. */
interface ListWorker extends ListsReady {
  ask(query: ListQuery): Promise<{ ms?: number; blocks?: number }>;
  stop(): Promise<void>;
}

async function startListWorker(testingSpecifier: string, count: number): Promise<ListWorker> {
  const child: ChildProcess = spawn(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--import', 'tsx', WORKER, 'lists', testingSpecifier, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (answer: { ms?: number; blocks?: number }) => void; reject: (error: Error) => void }>();
  let asked = 0;
  const ready = await new Promise<ListsReady>((resolve, reject) => {
    child.on('message', (message: { ready?: ListsReady; id?: number; ms?: number; blocks?: number }) => {
      if (message.ready) resolve(message.ready);
      else if (message.id !== undefined) pending.get(message.id)?.resolve(message);
    });
    child.once('exit', (code) => {
      const error = new Error(`scale worker lists ${count} exited with ${code}`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
  });
  return {
    ...ready,
    ask: (query) =>
      new Promise((resolve, reject) => {
        const id = ++asked;
        pending.set(id, { resolve, reject });
        child.send({ ...query, id });
      }),
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

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
  const small = await startListWorker(ctx.pkg.testingSpecifier, sizes[0]!);
  const ready: ListsReady[] = [small];
  const compared: Array<Record<ListRoute, Compared>> = [];
  try {
    for (const size of sizes.slice(1)) {
      ctx.log(`server scale: ${size.toLocaleString('en')} executions and items beside the ${sizes[0]!.toLocaleString('en')}, ${rounds} alternating rounds`);
      const large = await startListWorker(ctx.pkg.testingSpecifier, size);
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

  const lists = ready;
  const restoreCurve = (key: 'restoreMs' | 'snapshotMs') => lists.map((l) => `${short(l.records)} ${formatMs(l[key])}`).join(', ');
  const growth = (key: 'restoreMs' | 'snapshotMs') => lists.slice(1).map((l, i) => l[key] / lists[i]![key]);
  const worstGrowth = Math.max(...growth('restoreMs'), ...growth('snapshotMs'));
  rows.push({
    name: FIGURE_NAMES.scaleSnapshot,
    ours: `restore ${formatMs(largestReady.restoreMs)}, snapshot ${formatMs(largestReady.snapshotMs)} at ${short(largestReady.records)} executions + ${short(largestReady.records)} items`,
    anchor: `at ${short(smallest.records)}: restore ${formatMs(smallest.restoreMs)}, snapshot ${formatMs(smallest.snapshotMs)}`,
    result: `per 10x of records: restore ${growth('restoreMs').map(formatRatio).join(', ')}; snapshot ${growth('snapshotMs').map(formatRatio).join(', ')}`,
    target: '<= 12x per 10x (linear)',
    met: judged(ctx.mode.smoke, worstGrowth <= 12),
    how: `server.restore() of a snapshot holding the records, then server.snapshot(): one warm-up of each, then the median of 5 timed rounds, a full GC (not timed) before each; restore ${restoreCurve('restoreMs')}; snapshot ${restoreCurve('snapshotMs')}`,
  });

  const counts = ctx.mode.smoke ? [500, 1000] : [4000, 8000, 16_000, 32_000];
  const idle: Array<{ runs: number; idleMs: number }> = [];
  for (const runs of counts) {
    ctx.log(`server scale: idle() with ${runs.toLocaleString('en')} queued async runs`);
    idle.push(await runScaleWorker(ctx.pkg.testingSpecifier, 'idle', runs));
  }
  const perRunGrowth = idle.slice(1).map((x, i) => x.idleMs / x.runs / (idle[i]!.idleMs / idle[i]!.runs));
  const last = idle.at(-1)!;
  rows.push({
    name: FIGURE_NAMES.scaleIdle,
    ours: `${formatMs(last.idleMs)} for ${last.runs.toLocaleString('en')} runs`,
    anchor: `${formatMs(idle[0]!.idleMs)} for ${idle[0]!.runs.toLocaleString('en')} runs`,
    result: `time per run per doubling: ${perRunGrowth.map(formatRatio).join(', ')}`,
    target: '< 2 s at 32k; <= 1.50x per doubling',
    met: judged(ctx.mode.smoke, last.idleMs < 2000 && Math.max(...perRunGrowth) <= 1.5),
    how: `async echo runs queued through server.handle on a frozen clock (after 1000 warm-up runs), then 3 rounds of the count queued and server.idle() timed after a full GC, the median, each count in a fresh process: ${idle.map((x) => `${short(x.runs)} ${formatMs(x.idleMs)}`).join(', ')}`,
  });
  return rows;
}
