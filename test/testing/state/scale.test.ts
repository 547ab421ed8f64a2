import { afterEach, describe, expect, it } from 'vitest';
import type { AsyncPointer, ExecutionList, ExecutionResult, Item, ItemList, Workflow } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { bySeq, IndexedMap } from '../../../src/testing/support/indexedMap.js';
import { OrderedIndex } from '../../../src/testing/support/orderedIndex.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

async function echo(text: string, options: { async?: boolean } = {}): Promise<string> {
  const res = await callJson<ExecutionResult | AsyncPointer>(server, 'POST', '/v1/tools/echo/execute', { body: { text, ...options } });
  return res.body.execution_id;
}

/** Every page of a list route, following next_cursor. */
async function allPages(path: string, limit: number, key: 'id' | 'execution_id' = 'id'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const page: { body: { data: Array<Record<string, string>>; next_cursor: string | null } } = await callJson(
      server,
      'GET',
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    ids.push(...page.body.data.map((r) => r[key]!));
    cursor = page.body.next_cursor;
    if (cursor === null) return ids;
  }
}

describe('the ordered index under the lists', () => {
  it('keeps keys in order through inserts out of order, deletes and chunk splits, and pages from any position', () => {
    const index = new OrderedIndex<number, string>((a, b) => a - b);
    const keys = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3000);
    for (const k of keys) index.insert(k, `r${k}`);
    for (let k = 0; k < 3000; k += 3) expect(index.delete(k)).toBe(true);
    expect(index.delete(0)).toBe(false);
    const kept = Array.from({ length: 3000 }, (_, k) => k).filter((k) => k % 3 !== 0);
    expect(index.size).toBe(kept.length);
    expect([...index.rows()]).toEqual(kept.map((k) => `r${k}`));
    expect(index.page(1500, 3, false)).toEqual(['r1501', 'r1502', 'r1504']);
    expect(index.page(1500, 3, true)).toEqual(['r1499', 'r1498', 'r1496']);
    expect(index.page(undefined, 2, true)).toEqual(['r2999', 'r2998']);
    expect(index.page(1, 5, true)).toEqual([]);
    expect(index.get(1501)).toBe('r1501');
    expect(index.get(1500)).toBeUndefined();
  });
});

describe('a clone of the ordered index', () => {
  it('shares its chunks until one side writes: inserts (at the end, inside, splitting) and deletes on either side never reach the other', () => {
    // A model of each side: the rows by key.
    const original = new OrderedIndex<number, string>((a, b) => a - b);
    const model = new Map<number, string>();
    for (let k = 0; k < 3000; k += 2) {
      original.insert(k, `r${k}`);
      model.set(k, `r${k}`);
    }
    const copy = original.clone();
    const copyModel = new Map(model);
    const sides = [
      { index: original, model, tag: 'o' },
      { index: copy, model: copyModel, tag: 'c' },
    ];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 4000; step++) {
      const side = sides[next(2)]!;
      const key = next(2) === 0 ? next(4000) : 4000 + step; // inside the range (splits chunks), or at the end
      if (next(2) === 0 && !side.model.has(key)) {
        side.index.insert(key, `${side.tag}${key}`);
        side.model.set(key, `${side.tag}${key}`);
      } else {
        expect(side.index.delete(key)).toBe(side.model.delete(key));
      }
      // And the oldest row, as retention drops it.
      if (step % 500 === 0) {
        const oldest = Math.min(...side.model.keys());
        expect(side.index.delete(oldest)).toBe(true);
        side.model.delete(oldest);
      }
    }
    for (const { index, model: rows } of sides) {
      const sorted = [...rows.keys()].sort((a, b) => a - b);
      expect(index.size).toBe(sorted.length);
      expect([...index.rows()]).toEqual(sorted.map((k) => rows.get(k)));
      expect(index.page(sorted[100], 3, false)).toEqual(sorted.slice(101, 104).map((k) => rows.get(k)));
    }
    // Both sides wrote: the test would pass trivially if one of them had not.
    expect([...original.rows()].some((row) => row.startsWith('o'))).toBe(true);
    expect([...copy.rows()].some((row) => row.startsWith('c'))).toBe(true);
    // A clone of a clone, written to, leaves both as they were.
    const before = [...copy.rows()];
    const third = copy.clone();
    third.insert(-1, 'first');
    third.delete(4000 + 3999);
    expect([...copy.rows()]).toEqual(before);
  });
});

describe('a clone of an indexed map', () => {
  it('pages each side as it was written after the clone: records copied by the clone, set, deleted and reindexed on either side', () => {
    type Run = { id: string; status: string };
    const runs = new IndexedMap<Run>({ orderOf: (_, seq) => seq, order: bySeq, indexesOf: (r) => ['all', `status=${r.status}`] });
    for (let i = 0; i < 1200; i++) runs.set(`r${i}`, { id: `r${i}`, status: i % 4 === 0 ? 'running' : 'done' });
    // The clone copies the running ones (as a snapshot copies unfinished records) and shares the rest.
    const copy = runs.clone((r) => (r.status === 'running' ? { ...r } : r));
    expect(copy.get('r4')).not.toBe(runs.get('r4'));
    expect(copy.get('r5')).toBe(runs.get('r5'));
    runs.get('r4')!.status = 'done';
    runs.reindex('r4');
    runs.delete('r8');
    runs.set('new', { id: 'new', status: 'running' });
    copy.set('r12', { id: 'r12', status: 'done' });
    const ids = (map: IndexedMap<Run>, index: string) => map.page(index, undefined, 5000, false).map((r) => r.id);
    expect(ids(runs, 'status=running').slice(0, 4)).toEqual(['r0', 'r12', 'r16', 'r20']);
    expect(ids(copy, 'status=running').slice(0, 4)).toEqual(['r0', 'r4', 'r8', 'r16']);
    expect(copy.get('r4')!.status).toBe('running');
    expect(ids(runs, 'all').at(-1)).toBe('new');
    expect(ids(copy, 'all')).toHaveLength(1200);
    expect(copy.find('all', 12)).toEqual({ id: 'r12', status: 'done' });
    expect(runs.find('all', 12)).toEqual({ id: 'r12', status: 'running' });
  });
});

describe('lists read indexes kept in step with writes', () => {
  it('pages every execution newest first under each filter, with cursors deep in the list', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) ids.push(await echo(`t${i}`));
    const agent = await callJson<ExecutionResult>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'x' } });
    const newestFirst = [agent.body.execution_id, ...[...ids].reverse()];
    expect(await allPages('/v1/executions', 7)).toEqual(newestFirst);
    expect(await allPages('/v1/executions?kind=tool', 10)).toEqual([...ids].reverse());
    expect(await allPages('/v1/executions?kind=agent&status=succeeded', 10)).toEqual([agent.body.execution_id]);
    expect(await allPages('/v1/executions?status=running', 10)).toEqual([]);
    expect(await allPages('/v1/traces', 9, 'execution_id')).toEqual(newestFirst);
  });

  it('moves a record between status indexes as it runs, and a cursor stays good after its row left the filter', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const queued = [];
    for (let i = 0; i < 5; i++) queued.push(await echo(`q${i}`, { async: true }));
    const first = await callJson<ExecutionList>(server, 'GET', '/v1/executions?status=queued&limit=2');
    expect(first.body.data.map((e) => e.id)).toEqual([queued[4], queued[3]]);
    await server.idle();
    expect((await callJson<ExecutionList>(server, 'GET', '/v1/executions?status=queued')).body.data).toEqual([]);
    expect(await allPages('/v1/executions?status=succeeded', 2)).toEqual([...queued].reverse());
    // The cursor's row is succeeded now: the page after it still starts where it stood.
    const next = await callJson<ExecutionList>(server, 'GET', `/v1/executions?status=succeeded&limit=2&cursor=${first.body.next_cursor}`);
    expect(next.body.data.map((e) => e.id)).toEqual([queued[2], queued[1]]);
  });

  it('answers 422 for a cursor of another account or of no record, on every indexed list', async () => {
    server = createTestServer();
    const mine = await echo('mine');
    const theirs = await callJson<ExecutionResult>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, key: server.keys.otherApiKey });
    for (const path of ['/v1/executions', '/v1/traces', '/v1/schedules', '/v1/workflows', '/v1/companies/acme/items']) {
      for (const cursor of ['exe_nope', theirs.body.execution_id]) {
        const res = await callJson<ErrorBody>(server, 'GET', `${path}?cursor=${cursor}`);
        expect([path, res.status, res.body.error.code]).toEqual([path, 422, 'invalid_params']);
      }
    }
    expect((await callJson<ExecutionList>(server, 'GET', `/v1/executions?cursor=${mine}`)).body.data).toEqual([]);
  });

  it('pages items by building and status as they walk, and workflows by name', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const hq: string[] = [];
    const lab: string[] = [];
    for (let i = 0; i < 6; i++) {
      hq.push((await callJson<Item>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'hq', title: `h${i}` } })).body.id);
      lab.push((await callJson<Item>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: `l${i}` } })).body.id);
    }
    expect(await allPages('/v1/companies/acme/items?building=lab&status=active', 4)).toEqual([...lab].reverse());
    await server.clock.advance(1000);
    expect(await allPages('/v1/companies/acme/items?status=done', 4)).toEqual([...hq].reverse());
    expect(await allPages('/v1/companies/acme/items?building=hq&status=active', 4)).toEqual([]);
    server.items.park(lab[0]!, 'waiting');
    expect(await allPages('/v1/companies/acme/items?status=parked', 4)).toEqual([lab[0]]);
    expect((await callJson<ItemList>(server, 'GET', '/v1/companies/acme/items?building=lab&status=active')).body.data).toHaveLength(5);

    for (const name of ['delta', 'alpha', 'charlie', 'bravo']) {
      await callJson(server, 'POST', '/v1/workflows', { body: { name, tasks: [{ id: 't', type: 'task', agent: 'writer' }] } });
    }
    const page = await callJson<{ data: Workflow[]; next_cursor: string | null }>(server, 'GET', '/v1/workflows?limit=2');
    expect([page.body.data.map((w) => w.name), page.body.next_cursor]).toEqual([['alpha', 'bravo'], 'bravo']);
    const rest = await callJson<{ data: Workflow[]; next_cursor: string | null }>(server, 'GET', '/v1/workflows?limit=2&cursor=bravo');
    expect([rest.body.data.map((w) => w.name), rest.body.next_cursor]).toEqual([['charlie', 'delta'], 'delta']);
    const last = await callJson<{ data: Workflow[]; next_cursor: string | null }>(server, 'GET', '/v1/workflows?cursor=delta');
    expect([last.body.data.map((w) => w.name), last.body.next_cursor]).toEqual([['draft-and-review'], null]);
    expect((await call(server, 'DELETE', '/v1/workflows/bravo')).status).toBe(200);
    expect((await call(server, 'GET', '/v1/workflows?cursor=bravo')).status).toBe(422);
  });
});

describe('retention bounds memory', () => {
  it('drops the earliest finished executions beyond the limit; a dropped one answers 404 like one that never was', async () => {
    server = createTestServer({ clock: { frozen: true }, retention: { executions: 3 } });
    const running = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 60_000, async: true } });
    await server.clock.advance(10);
    const done: string[] = [];
    for (let i = 0; i < 5; i++) done.push(await echo(`e${i}`));
    expect(await allPages('/v1/executions', 10)).toEqual([done[4], done[3], done[2], running.body.execution_id]);
    for (const id of done.slice(0, 2)) {
      const gone = await callJson<ErrorBody>(server, 'GET', `/v1/executions/${id}`);
      const never = await callJson<ErrorBody>(server, 'GET', '/v1/executions/exe_neverexisted');
      expect([gone.status, gone.body.error.code]).toEqual([never.status, never.body.error.code]);
      expect((await call(server, 'GET', `/v1/traces/${id}`)).status).toBe(404);
    }
    // The unfinished run is never dropped; once it finishes, it counts like the others.
    await server.clock.advance(60_000);
    expect(server.getExecution(running.body.execution_id)!.status).toBe('succeeded');
    expect(await allPages('/v1/executions', 10)).toEqual([done[4], done[3], running.body.execution_id]);
  });

  it('drops the earliest finished items, never active or parked ones, and starts over from restored data', async () => {
    server = createTestServer({ clock: { frozen: true }, retention: { items: 1 } });
    const create = async (building: string, title: string) =>
      (await callJson<Item>(server, 'POST', '/v1/companies/acme/items', { body: { building, title } })).body.id;
    const a = await create('hq', 'a');
    const b = await create('hq', 'b');
    const waiting = await create('lab', 'waits');
    await server.clock.advance(1000);
    expect([server.items.get(a), server.items.get(b)?.status, server.items.get(waiting)?.status]).toEqual([undefined, 'done', 'active']);
    const snap = server.snapshot();
    const c = await create('hq', 'c');
    await server.clock.advance(1000);
    expect(server.items.get(b)).toBeUndefined();
    server.restore(snap);
    expect([server.items.get(b)?.status, server.items.get(c)]).toEqual(['done', undefined]);
  });

  it('rejects a limit that is not a whole number >= 0', () => {
    expect(() => createTestServer({ retention: { executions: -1 } })).toThrow(/retention.executions/);
    expect(() => createTestServer({ retention: { items: 1.5 } })).toThrow(/retention.items/);
    expect(() => createTestServer({ journalLimit: Number.NaN })).toThrow(/journalLimit/);
  });

  it('keeps at most journalLimit entries, the newest, oldest first', async () => {
    server = createTestServer({ journalLimit: 3 });
    for (let i = 0; i < 7; i++) await call(server, 'GET', `/v1/tools?limit=${i + 1}`);
    expect(server.journal.entries.map((e) => e.query)).toEqual(['limit=5', 'limit=6', 'limit=7']);
    expect(server.journal.count()).toBe(3);
    expect(server.journal.last()?.query).toBe('limit=7');
    server.journal.clear();
    expect(server.journal.entries).toEqual([]);
  });
});

describe('snapshot and restore', () => {
  it('copies the data: later changes do not reach the snapshot, and a restore can be repeated', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const queued = await echo('later', { async: true });
    await server.clock.advance(10);
    const item = (await callJson<Item>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'local' } })).body.id;
    const snap = server.snapshot();
    const first = await echo('after the snapshot');
    server.items.update(item, { status: 'done', step: 'done', last_output: 'changed' });
    server.restore(snap);
    expect(server.getExecution(first)).toBeUndefined();
    expect(server.getExecution(queued)!.status).toBe('succeeded');
    expect(server.items.get(item)).toMatchObject({ status: 'active', step: 'intake', last_output: null });
    expect(await allPages('/v1/companies/acme/items?status=active', 5)).toEqual([item]);
    expect(await allPages('/v1/executions', 5)).toEqual([queued]);
    await echo('again');
    server.restore(snap);
    expect(await allPages('/v1/executions', 5)).toEqual([queued]);
  });
});
