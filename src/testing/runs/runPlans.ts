import type { WorkflowTask } from '../../generated/types.js';
import { invalidParams, notFound } from '../contract/errors.js';
import type { Store } from '../state/store.js';
import type { ExecutionRecord, RunTaskRecord } from '../state/state.js';
import { isPlainObject } from '../support/plainObject.js';
import type { ServerClock } from '../time/clock.js';
import type { PlannedTask, Runner, RunPlan } from './runner.js';

/** A stored workflow's tasks as a run holds them. */
export function taskRecordsOf(tasks: readonly WorkflowTask[]): RunTaskRecord[] {
  return tasks.map(({ id, type: _type, agent, ...fields }) => ({ id, agent, fields }));
}

/** The tasks of a workflow run with their agents from the catalog; 422 when one is gone. */
export function plannedTasks(store: Store, workflow: string, tasks: readonly RunTaskRecord[]): PlannedTask[] {
  return tasks.map(({ id, agent, fields }) => {
    const found = store.catalog.agents.get(agent);
    if (!found) throw invalidParams(`Workflow ${workflow} names an agent that is gone: ${agent}.`);
    return { id, agent: found, fields };
  });
}

function isTaskRecord(value: unknown): value is RunTaskRecord {
  return isPlainObject(value) && typeof value.id === 'string' && typeof value.agent === 'string' && isPlainObject(value.fields);
}

/**
 * What an execution record runs, from the catalog: its tool with its input, its agent with its input, or its
 * workflow's tasks (the record's own, else its stored workflow's). Throws a 404 or 422 `OzMockError` when that is gone.
 */
export function planOfRecord(store: Store, record: ExecutionRecord): RunPlan {
  const { kind, target, input } = record;
  if (kind === 'tool') {
    const tool = store.catalog.tools.get(target);
    if (!tool) throw notFound('tool', `The run's tool ${target} is gone.`);
    return { type: 'tool', tool, params: input };
  }
  if (kind === 'agent') {
    const agent = store.catalog.agents.get(target);
    if (!agent) throw notFound('agent', `The run's agent ${target} is gone.`);
    return { type: 'agent', agent, input };
  }
  const stored = record.workflow_id === null ? undefined : store.data.workflows.get(record.workflow_id);
  const tasks: unknown = record.tasks ?? (stored ? taskRecordsOf(stored.tasks) : undefined);
  if (!Array.isArray(tasks) || tasks.length === 0 || !tasks.every(isTaskRecord)) {
    throw invalidParams(`Execution ${record.id} of workflow ${target} holds no tasks to run again.`);
  }
  return { type: 'workflow', tasks: plannedTasks(store, target, tasks), input: input.input, inputs: isPlainObject(input.inputs) ? input.inputs : {} };
}

/** What taking runs up again works with. */
export interface ResumeNeeds {
  readonly store: Store;
  readonly runner: Runner;
  readonly clock: ServerClock;
}

/**
 * Takes up again every run the state holds as queued or running (a state saved while they were in flight): each
 * starts again from its beginning in the background, what the interrupted run had done dropped; a run whose tool,
 * agent or workflow is gone fails with that error.
 */
export function resumeRuns(parts: ResumeNeeds): void {
  const { store, runner, clock } = parts;
  const inFlight = [...store.data.executions.values()].filter((r) => r.status === 'queued' || r.status === 'running');
  for (const record of inFlight) {
    Object.assign(record, { status: 'queued', content: null, error: null, cost_micros: 0, spans: [], finished_at: null, updated_at: clock.now() });
    store.executionChanged(record);
    let plan: RunPlan;
    try {
      plan = planOfRecord(store, record);
    } catch (err) {
      runner.failUnstarted(record, err);
      continue;
    }
    runner.runInBackground(record, plan);
  }
}
