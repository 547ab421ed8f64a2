import { afterEach, describe, expect, it } from 'vitest';
import type { AsyncPointer, Execution, ExecutionList, Item, Schedule } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { ServerClock } from '../../../src/testing/time/clock.js';
import { createTestServer } from '../../support/ozServer.js';
import { callJson } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

const HOUR = 3_600_000;
const START = '2026-01-05T10:30:00.000Z';

describe('clock.advance runs every timer due in the window, in time order', () => {
  it('fires timers at their own time, including the ones fired timers set, and none beyond the window', async () => {
    const clock = new ServerClock({ frozen: true, start: 0 });
    const fired: Array<[string, number]> = [];
    const note = (name: string) => fired.push([name, clock.now()]);
    clock.timer(30, () => note('c'));
    clock.timer(10, () => {
      note('a');
      clock.timer(5, () => note('a+5'));
      clock.timer(100, () => note('a+100'));
    });
    clock.timer(10, () => note('b'));
    await clock.advance(50);
    expect(fired).toEqual([
      ['a', 10],
      ['b', 10],
      ['a+5', 15],
      ['c', 30],
    ]);
    expect(clock.now()).toBe(50);
    await clock.advance(60);
    expect(fired.at(-1)).toEqual(['a+100', 110]);
  });

  it('lets the promise chain a timer starts settle before the next due timer fires', async () => {
    const clock = new ServerClock({ frozen: true, start: 0 });
    const order: string[] = [];
    const chain = async () => {
      await clock.sleep(10);
      order.push('slept 10');
      await Promise.resolve();
      order.push('chain settled');
      await clock.sleep(10);
      order.push('slept 20');
    };
    void chain();
    clock.timer(11, () => order.push('timer 11'));
    await clock.advance(20);
    expect(order).toEqual(['slept 10', 'chain settled', 'timer 11', 'slept 20']);
  });

  it('does not fire a cancelled timer, and idle work ends when none is due', async () => {
    const clock = new ServerClock({ frozen: true, start: 0 });
    const fired: number[] = [];
    const handles = Array.from({ length: 200 }, (_, i) => clock.timer(i, () => fired.push(i)));
    for (const [i, h] of handles.entries()) if (i % 2 === 0) h.cancel();
    expect(clock.nextWorkDue()).toBe(1);
    await clock.advance(1000);
    expect(fired).toEqual(Array.from({ length: 100 }, (_, i) => 2 * i + 1));
    expect(clock.nextWorkDue()).toBeNull();
  });

  it('rejects a negative or infinite advance', async () => {
    const clock = new ServerClock({ frozen: true });
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.advance(Infinity)).rejects.toThrow(RangeError);
    await expect(clock.advance(Number.NaN)).rejects.toThrow(RangeError);
  });

  it('fires real-time timers on a running clock in order', async () => {
    const clock = new ServerClock();
    const order: number[] = [];
    await Promise.all([20, 5, 10].map((ms) => clock.sleep(ms).then(() => order.push(ms))));
    expect(order).toEqual([5, 10, 20]);
  });

  it('advance(5010) finishes a 5 s async run', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 5000, async: true } });
    await server.clock.advance(5010);
    expect(server.getExecution(started.body.execution_id)).toMatchObject({ status: 'succeeded', content: 'Waited 5000 ms.' });
  });

  it('advance(9) leaves the same run queued: nothing fires before its time', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 5000, async: true } });
    await server.clock.advance(9);
    expect(server.getExecution(started.body.execution_id)!.status).toBe('queued');
    await server.clock.advance(5000);
    expect(server.getExecution(started.body.execution_id)!.status).toBe('running');
  });

  it('advance(1000) walks an item through every step due (intake, plan, build, review, done)', async () => {
    server = createTestServer({ clock: { frozen: true } });
    const created = await callJson<Item>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'hq', title: 'Walk' } });
    await server.clock.advance(1000);
    expect(server.items.get(created.body.id)).toMatchObject({ status: 'done', step: 'done', last_output: 'review: build: plan: Walk', cost_usd: 0.003 });
  });
});

describe('schedules fire once per occurrence in an advanced window', () => {
  it('advance(3h) fires an hourly schedule three times, at each occurrence', async () => {
    server = createTestServer({ clock: { frozen: true, start: START } });
    const created = await callJson<Schedule>(server, 'POST', '/v1/schedules', {
      body: { name: 'hourly', cron: '0 * * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'tick' } },
    });
    expect(created.body.next_run_at).toBe('2026-01-05T11:00:00.000Z');
    await server.clock.advance(3 * HOUR);
    await server.idle();
    const runs = await callJson<ExecutionList>(server, 'GET', '/v1/executions?kind=tool');
    expect(runs.body.data.map((e) => [e.status, e.content, e.created_at])).toEqual([
      ['succeeded', 'tick', '2026-01-05T13:00:00.000Z'],
      ['succeeded', 'tick', '2026-01-05T12:00:00.000Z'],
      ['succeeded', 'tick', '2026-01-05T11:00:00.000Z'],
    ]);
    const after = await callJson<Schedule>(server, 'GET', `/v1/schedules/${created.body.id}`);
    expect(after.body.next_run_at).toBe('2026-01-05T14:00:00.000Z');
  });

  it('fires nothing for a window without an occurrence, and a disabled schedule never', async () => {
    server = createTestServer({ clock: { frozen: true, start: START } });
    await callJson(server, 'POST', '/v1/schedules', {
      body: { name: 'daily', cron: '0 0 * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'x' } },
    });
    await callJson(server, 'POST', '/v1/schedules', {
      body: { name: 'off', cron: '* * * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'x' }, enabled: false },
    });
    await server.clock.advance(HOUR);
    await server.idle();
    expect((await callJson<ExecutionList>(server, 'GET', '/v1/executions')).body.data).toEqual([]);
  });
});

describe('polling headers from the server timing', () => {
  async function poll(id: string) {
    return callJson<Execution>(server, 'GET', `/v1/executions/${id}`);
  }

  it('suggests polling when the run’s current wait ends: retry-after-ms and Retry-After in whole seconds', async () => {
    server = createTestServer({ clock: { start: START } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 20, async: true } });
    const queued = await poll(started.body.execution_id);
    expect(queued.body.status).toBe('queued');
    const ms = Number(queued.headers.get('retry-after-ms'));
    // Queued: it starts after one step (10 ms) of the clock, less what passed since.
    expect(ms).toBeGreaterThanOrEqual(1);
    expect(ms).toBeLessThanOrEqual(11);
    expect(queued.headers.get('retry-after')).toBe('1');
    await server.idle();
    const done = await poll(started.body.execution_id);
    expect(done.body.status).toBe('succeeded');
    expect([done.headers.get('retry-after'), done.headers.get('retry-after-ms')]).toEqual([null, null]);
  });

  it('suggests the remaining time of a long wait, capped at 1000 ms', async () => {
    server = createTestServer();
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 60_000, async: true } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const running = await poll(started.body.execution_id);
    expect(running.body.status).toBe('running');
    expect([running.headers.get('retry-after-ms'), running.headers.get('retry-after')]).toEqual(['1000', '1']);
  });

  it("suggests one step on a frozen clock, where only advance() moves time, never less than the SDK's 50 ms floor", async () => {
    server = createTestServer({ clock: { frozen: true }, timing: { stepMs: 25 } });
    const started = await callJson<AsyncPointer>(server, 'POST', '/v1/tools/slow/execute', { body: { ms: 60_000, async: true } });
    expect((await poll(started.body.execution_id)).headers.get('retry-after-ms')).toBe('50');
    await server.clock.advance(25);
    const running = await poll(started.body.execution_id);
    expect([running.body.status, running.headers.get('retry-after-ms')]).toEqual(['running', '50']);
  });
});
