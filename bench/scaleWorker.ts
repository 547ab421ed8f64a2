/**
 * The embedded server at scale, in a process of its own (a fresh heap per size): started by the figures of
 * `figures/serverScale.ts` with an IPC channel; it sends `{ ready }` once its records are in, then answers each
 * query (`{ id, ... }`) with what it measured; closing the channel ends it.
 *
 *   node --expose-gc --import tsx bench/scaleWorker.ts lists <oz-sdk/testing URL> <records>
 *       N executions and N items put in through snapshot/restore (the only bulk door; the API would take minutes
 *       for a million); then it times the list routes' pages when asked (`ListQuery`), so that the figure can
 *       alternate rounds between two sizes
 *   node --expose-gc --import tsx bench/scaleWorker.ts snapshot <oz-sdk/testing URL> <records>
 *       the same records, one restore() and snapshot() as warm-up; then each `{ round }` is a restore() and a
 *       snapshot() of them and a `new Map(map)` of as many ids (the engine's own copy, an anchor), each timed after
 *       a forced GC (so that none pays the garbage of the one before), and it settles before it answers (see
 *       `settle`)
 *   node --expose-gc --import tsx bench/scaleWorker.ts idle <oz-sdk/testing URL> <runs>
 *       1000 async runs queued and idled as warm-up; then each `{ round }` queues N async runs on a frozen clock
 *       through the API, forces a GC, times server.idle(), resets the server (untimed) for the next round and
 *       settles before it answers
 *
 * The records' shape is the server's own: the worker builds them like the server does and relies on the layout of
 * a snapshot (`{ data, catalog }` with `data.executions` and `data.items` maps), which is the server's business but
 * stable; a server with items in company arrays (before issue 18) gets them there too.
 */
type Testing = typeof import('../src/testing/index.js');

const [kind, specifier, countText] = process.argv.slice(2);
const count = Number(countText);
const { createOzServer } = (await import(specifier!)) as Testing;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** The wall time of one call of `fn`, in ms, after a forced GC (the garbage of what ran before is not its cost). */
async function timedAfterGc(fn: () => unknown): Promise<number> {
  gc();
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Collects the garbage and waits until this process's own threads are quiet (under 10 % of a core over 50 ms, at
 * most 3 s): a large heap freed goes on being swept and unmapped by background threads after `gc()` returns, which
 * on a 2-core machine would run into the next round, this worker's or another's. (It did not cure what a live 1M
 * worker does to a smaller one beside it: see `snapshotGrowthRows`, whose sizes run one at a time.)
 */
async function settle(): Promise<void> {
  gc();
  for (const end = performance.now() + 3000; performance.now() < end;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 5) return;
  }
}

const KINDS = ['tool', 'agent', 'workflow'] as const;
const EXEC_STATUSES = ['succeeded', 'succeeded', 'failed', 'succeeded', 'cancelled'] as const;
const ITEM_STATUSES = ['done', 'done', 'failed', 'parked'] as const;

function execution(i: number, at: number): Record<string, unknown> {
  const id = `exe_${i.toString(36).padStart(24, '0')}`;
  return {
    id,
    account: 'demo',
    kind: KINDS[i % 3],
    target: KINDS[i % 3] === 'tool' ? 'echo' : 'writer',
    status: EXEC_STATUSES[i % 5],
    content: `answer ${i}`,
    error: null,
    workflow_id: null,
    task_id: null,
    cost_micros: 1000,
    created_at: at,
    updated_at: at,
    finished_at: at,
    input: { text: `call ${i}` },
    followup_agent: null,
    spans: [
      { id: `spn_root_${id}`, parent_id: null, name: 'tool echo', status: 'ok', started_at: at, ended_at: at, attributes: { kind: 'tool', target: 'echo' } },
    ],
  };
}

function item(i: number, at: number): Record<string, unknown> {
  const status = ITEM_STATUSES[i % 4]!;
  return {
    id: `itm_${i.toString(36).padStart(24, '0')}`,
    account: 'demo',
    campus: 'acme',
    building: i % 2 === 0 ? 'hq' : 'lab',
    title: `Item ${i}`,
    body: '',
    kind: 'task',
    source: 'api',
    priority: 0,
    tier: null,
    step: status === 'parked' ? 'parked' : status === 'done' ? 'done' : 'plan',
    attempt: 0,
    status,
    parked_reason: status === 'parked' ? 'bench' : null,
    paused: 0,
    steer: null,
    last_output: null,
    cost_micros: 0,
    parent_item_id: null,
    created_at: at,
    updated_at: at,
  };
}

interface SnapshotLayout {
  data: {
    executions: Map<string, unknown>;
    items: Map<string, unknown>;
    accounts: Map<string, { companies: Map<string, { items?: unknown[] }> }>;
  };
}

/** What the figure asks a `lists` worker: bring every route to a steady state, or time `calls` calls of one. */
export type ListQuery = { readonly warm: true } | { readonly route: ListRoute; readonly calls: number };
export type ListRoute = 'executionsFirst' | 'executionsDeep' | 'executionsFilteredDeep' | 'itemsFirst' | 'itemsDeep' | 'itemsFilteredDeep';
/** What a `lists` worker answers: the warm-up's blocks, or the median time of the calls. */
export interface ListAnswer {
  readonly blocks?: number;
  readonly ms?: number;
}
/** What a worker sends once it is ready: the size it holds. */
export interface WorkerReady {
  readonly records: number;
}
/** What a `snapshot` or `idle` worker is asked: one more timed round. */
export interface RoundQuery {
  readonly round: true;
}
/** A `snapshot` worker's round; `mapCopyMs` is the engine's own: `new Map(map)` of a Map of as many ids. */
export interface SnapshotRound {
  readonly restoreMs: number;
  readonly snapshotMs: number;
  readonly mapCopyMs: number;
}
/** An `idle` worker's round. */
export interface IdleRound {
  readonly idleMs: number;
}

/** The median of `times`. */
const medianOf = (times: number[]) => [...times].sort((a, b) => a - b)[times.length >> 1]!;

/** Answers each query of the figure with `answer(query)`, after saying it is ready; closing the channel ends it. */
function serve<Q>(server: { close(): Promise<void> }, records: number, answer: (query: Q) => Promise<object>): void {
  process.on('message', (query: Q & { id: number }) => {
    void answer(query)
      .then((out) => process.send!({ id: query.id, ...out }))
      .catch((error: unknown) => {
        process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
      });
  });
  process.once('disconnect', () => void server.close().then(() => process.exit(0)));
  const ready: WorkerReady = { records };
  process.send!({ ready });
}

/** A server holding `count` executions and `count` items (all of one account, the items of one company). */
function serverWithRecords() {
  const server = createOzServer({
    clock: { frozen: true, start: '2026-01-01T00:00:00Z' },
    rateLimit: { limit: 1e12 },
    retention: { executions: Infinity, items: Infinity },
  } as Parameters<typeof createOzServer>[0]);
  const base = server.snapshot() as unknown as SnapshotLayout;
  const acme = base.data.accounts.get('demo')!.companies.get('acme')!;
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) base.data.executions.set(`exe_${i.toString(36).padStart(24, '0')}`, execution(i, t0 + i));
  for (let i = 0; i < count; i++) {
    const record = item(i, t0 + i);
    base.data.items.set(record.id as string, record);
    acme.items?.push(record);
  }
  server.restore(base as never);
  return { server, base };
}

async function snapshots(): Promise<void> {
  const { server, base } = serverWithRecords();
  // Warm-up: the copy's code compiled for these records, and the heap grown to hold two copies of them.
  server.snapshot();
  server.restore(base as never);
  // The anchor: a plain Map of the same ids and records, copied as a Map is copied.
  const plain = new Map(base.data.executions);
  new Map(plain);
  serve<RoundQuery>(server, count, async () => {
    const restoreMs = await timedAfterGc(() => server.restore(base as never));
    const snapshotMs = await timedAfterGc(() => server.snapshot());
    const mapCopyMs = await timedAfterGc(() => new Map(plain));
    // The round's garbage collected now, on this round's time: not in the background of the next one.
    await settle();
    const round: SnapshotRound = { restoreMs, snapshotMs, mapCopyMs };
    return round;
  });
}

async function lists(): Promise<void> {
  const { server } = serverWithRecords();
  gc();
  const headers = { authorization: `Bearer ${server.apiKey}` };
  const get = async (path: string) => {
    const res = await server.handle(new Request(`${server.url}${path}`, { headers }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { data: unknown[] };
    if (page.data.length !== 20) throw new Error(`${path}: ${page.data.length} rows`);
  };
  // Deep cursors: rows in the middle of each list that match its filters.
  const mid = count >> 1;
  const midOf = (ok: (i: number) => boolean) => {
    let i = mid;
    while (!ok(i)) i++;
    return i.toString(36).padStart(24, '0');
  };
  const failedTool = midOf((i) => i % 5 === 2 && i % 3 === 0);
  const labDone = midOf((i) => i % 2 === 1 && ITEM_STATUSES[i % 4] === 'done');
  const routes: Record<ListRoute, string> = {
    executionsFirst: '/v1/executions?limit=20',
    executionsDeep: `/v1/executions?limit=20&cursor=exe_${mid.toString(36).padStart(24, '0')}`,
    executionsFilteredDeep: `/v1/executions?limit=20&status=failed&kind=tool&cursor=exe_${failedTool}`,
    itemsFirst: '/v1/companies/acme/items?limit=20',
    itemsDeep: `/v1/companies/acme/items?limit=20&cursor=itm_${mid.toString(36).padStart(24, '0')}`,
    itemsFilteredDeep: `/v1/companies/acme/items?limit=20&building=lab&status=done&cursor=itm_${labDone}`,
  };
  /** Each call's time, in ms. */
  const times = async (path: string, calls: number) => {
    const out: number[] = [];
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      await get(path);
      out.push(performance.now() - start);
    }
    return out;
  };
  // Warm-up to a steady state: the routes take turns in blocks of 100 calls (so that no route's code is
  // compiled for another's shapes alone) until no route's median moved by more than 5 % from its last block,
  // after at least 5 blocks each, at most 40.
  const warm = async () => {
    const last = new Map<string, number>();
    for (let block = 0; block < 40; block++) {
      let steady = block >= 5;
      for (const path of Object.values(routes)) {
        const now = medianOf(await times(path, 100));
        const before = last.get(path);
        if (before === undefined || Math.abs(now - before) > 0.05 * before) steady = false;
        last.set(path, now);
      }
      if (steady) return block + 1;
    }
    return 40;
  };
  serve<ListQuery>(server, count, async (query): Promise<ListAnswer> =>
    'warm' in query ? { blocks: await warm() } : { ms: medianOf(await times(routes[query.route], query.calls)) },
  );
}

async function idle(): Promise<void> {
  const server = createOzServer({ clock: { frozen: true }, rateLimit: { limit: 1e12 } });
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: '{"text":"queued","async":true}',
  };
  const queue = async (runs: number) => {
    for (let i = 0; i < runs; i++) {
      const res = await server.handle(new Request(`${server.url}/v1/tools/echo/execute`, init));
      if (res.status !== 202) throw new Error(`queueing run ${i}: ${res.status}`);
      await res.arrayBuffer();
    }
  };
  // Warm-up: the run's code paths get compiled before anything is counted.
  await queue(1000);
  await server.idle();
  server.reset();
  serve<RoundQuery>(server, count, async () => {
    await queue(count);
    const idleMs = await timedAfterGc(() => server.idle());
    const list = await server.handle(new Request(`${server.url}/v1/executions?status=queued&limit=1`, { headers: init.headers }));
    const queued = ((await list.json()) as { data: unknown[] }).data.length;
    if (queued !== 0) throw new Error('runs still queued after idle()');
    // The next round starts from the same state: no executions of the rounds before.
    server.reset();
    await settle();
    const round: IdleRound = { idleMs };
    return round;
  });
}

if (kind === 'lists') await lists();
else if (kind === 'snapshot') await snapshots();
else if (kind === 'idle') await idle();
else throw new Error(`Unknown scale measurement: ${kind}`);
