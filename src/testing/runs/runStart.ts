import type { ExecutionKind } from '../../generated/types.js';
import { OzMockError, stateReset } from '../contract/errors.js';
import type { ExecutionRecord } from '../state/state.js';
import { newId } from '../support/ids.js';
import type { ServerClock } from '../time/clock.js';
import type { StateLifetime } from '../time/stateLifetime.js';
import type { Runner, RunOutcome, RunPlan } from './runner.js';

/** What an execute route (or a schedule) runs. */
export interface RunRequest {
  readonly kind: ExecutionKind;
  readonly target: string;
  readonly input: Record<string, unknown>;
  readonly plan: RunPlan;
  /** `async: true`: answer 202 with the pointer and run in the background. */
  readonly async: boolean;
  readonly workflowId?: string | null;
  readonly followupAgent: string | null;
}

/** What a run in the request works with: the runner, the clock, the state's lifetime and how long a sync answer waits. */
export interface SyncRunNeeds {
  readonly runner: Runner;
  readonly clock: ServerClock;
  readonly lifetime: StateLifetime;
  readonly options: { readonly syncTimeoutMs: number };
}

/** Stores the execution of a run for an account: queued with a task id when async, else running. */
export function newExecution(runner: Runner, account: string, run: RunRequest, traceId: string | null): ExecutionRecord {
  return runner.create({
    account,
    kind: run.kind,
    target: run.target,
    id: traceId,
    input: run.input,
    workflowId: run.workflowId ?? null,
    taskId: run.async ? newId('tsk') : null,
    followupAgent: run.followupAgent,
    status: run.async ? 'queued' : 'running',
    ...(run.plan.type === 'workflow' ? { tasks: run.plan.tasks.map((t) => ({ id: t.id, agent: t.agent.name, fields: t.fields })) } : {}),
  });
}

const TIMEOUT = Symbol('timeout');

/** The run's outcome; `TIMEOUT` past `syncTimeoutMs`; `reset` at once when the state it runs in ends. */
function withTimeout(parts: SyncRunNeeds, run: Promise<RunOutcome>): Promise<RunOutcome | typeof TIMEOUT> {
  return new Promise((resolve) => {
    const settle = (outcome: RunOutcome | typeof TIMEOUT) => {
      timer.cancel();
      forget();
      resolve(outcome);
    };
    const timer = parts.clock.timer(parts.options.syncTimeoutMs, () => settle(TIMEOUT), false);
    const forget = parts.lifetime.onEnd(() => settle({ ok: false, error: stateReset() }));
    void run.then(settle);
  });
}

/**
 * Runs an execution in the request and answers its outcome; past `syncTimeoutMs` the outcome is 504
 * `timeout` (the run goes on).
 */
export async function runSync(parts: SyncRunNeeds, record: ExecutionRecord, run: RunRequest): Promise<RunOutcome> {
  const outcome = parts.runner.execute(record, run.plan, { paced: false });
  if (!(outcome instanceof Promise)) return outcome;
  const settled = await withTimeout(parts, outcome);
  if (settled !== TIMEOUT) return settled;
  return {
    ok: false,
    error: new OzMockError(504, 'timeout', `The run did not finish within ${parts.options.syncTimeoutMs} ms; it goes on.`, {
      hint: 'Poll GET /v1/executions/{id} for its outcome.',
      retryAfter: 1,
    }),
  };
}
