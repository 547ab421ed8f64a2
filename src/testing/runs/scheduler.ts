import { notFound } from '../contract/errors.js';
import { plannedTasks, taskRecordsOf } from './runPlans.js';
import { nextCronRun, parseCron } from '../support/cron.js';
import { newId } from '../support/ids.js';
import { isPlainObject } from '../support/plainObject.js';
import { requireToolLinks } from '../state/toolLinks.js';
import type { Store } from '../state/store.js';
import type { ServerClock } from '../time/clock.js';
import type { StateLifetime } from '../time/stateLifetime.js';
import type { Runner } from './runner.js';
import { newExecution, type RunRequest } from './runStart.js';
import type { ScheduleRecord } from '../state/state.js';

/** The run a schedule starts: its target with its input, in the background (checked now). */
export function scheduleRun(store: Store, s: ScheduleRecord): RunRequest {
  const { kind, name } = s.target;
  if (kind === 'tool') {
    const tool = store.catalog.tools.get(name);
    if (!tool) throw notFound('tool', `The schedule's tool ${name} is gone.`);
    tool.check(s.input);
    requireToolLinks(store.data.accounts.get(s.account), tool);
    return { kind, target: name, input: s.input, plan: { type: 'tool', tool, params: s.input }, async: true, followupAgent: null };
  }
  if (kind === 'agent') {
    const agent = store.catalog.agents.get(name);
    if (!agent) throw notFound('agent', `The schedule's agent ${name} is gone.`);
    agent.check(s.input);
    return { kind, target: name, input: s.input, plan: { type: 'agent', agent, input: s.input }, async: true, followupAgent: name };
  }
  const w = store.workflowByName(s.account, name);
  if (!w) throw notFound('workflow', `The schedule's workflow ${name} is gone.`);
  const tasks = plannedTasks(store, name, taskRecordsOf(w.tasks));
  const inputs = isPlainObject(s.input.inputs) ? s.input.inputs : {};
  return {
    kind,
    target: name,
    input: s.input,
    plan: { type: 'workflow', tasks, input: s.input.input, inputs },
    async: true,
    workflowId: w.id,
    followupAgent: tasks[tasks.length - 1]!.agent.name,
  };
}

/** What the scheduler works with: the clock, the store, the runner and the state's lifetime. */
export interface SchedulerNeeds {
  readonly clock: ServerClock;
  readonly store: Store;
  readonly runner: Runner;
  readonly lifetime: StateLifetime;
}

/**
 * Fires enabled schedules when the clock reaches their `next_run_at`, then arms the next occurrence after that
 * one: `clock.advance` over a window fires each occurrence in it once, in time order. Its timers are not work:
 * `idle()` does not wait for them.
 */
export class Scheduler {
  readonly #parts: SchedulerNeeds;

  constructor(parts: SchedulerNeeds) {
    this.#parts = parts;
  }

  /** Arms a schedule's next run. */
  arm(s: ScheduleRecord): void {
    if (!s.enabled || s.next_run_at === null) return;
    const { signal } = this.#parts.lifetime;
    const due = s.next_run_at;
    this.#parts.clock.timer(
      Math.max(0, due - this.#parts.clock.now()),
      () => {
        const current = this.#parts.store.data.schedules.get(s.id);
        if (signal.aborted || current !== s || s.next_run_at !== due) return;
        this.#fire(s);
      },
      false,
    );
  }

  /** Arms every enabled schedule (after a reset or restore). */
  armAll(): void {
    for (const s of this.#parts.store.data.schedules.values()) this.arm(s);
  }

  #fire(s: ScheduleRecord): void {
    const { runner, clock, store } = this.#parts;
    const occurrence = s.next_run_at ?? clock.now();
    try {
      const run = scheduleRun(store, s);
      runner.runInBackground(newExecution(runner, s.account, run, null), run.plan);
    } catch (err) {
      runner.failUnstarted(
        runner.create({
          account: s.account,
          kind: s.target.kind,
          target: s.target.name,
          input: s.input,
          taskId: newId('tsk'),
          followupAgent: null,
          status: 'queued',
        }),
        err,
      );
    }
    // The next occurrence after the one that fired: an `advance` over several occurrences fires each once.
    const cron = parseCron(s.cron);
    s.next_run_at = cron ? nextCronRun(cron, s.timezone, occurrence) : null;
    this.arm(s);
  }
}
