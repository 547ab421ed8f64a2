import { paceToken } from '../wire/streamPace.js';
import { MIN_POLL_MS } from '../../core/executions/executionPoller.js';
import type { ExecutionKind } from '../../generated/types.js';
import type { CatalogAgent, CatalogTool, RunContext } from '../state/catalog.js';
import { invalidParams, OzMockError, stateReset, toMockError } from '../contract/errors.js';
import { newId } from '../support/ids.js';
import type { ServerClock } from '../time/clock.js';
import type { Timing } from '../time/timing.js';
import type { StateLifetime } from '../time/stateLifetime.js';
import type { WorkTracker } from '../time/workTracker.js';
import type { Store } from '../state/store.js';
import type { ExecutionRecord, RunTaskRecord, SpanRecord } from '../state/state.js';
import { tokenize } from '../support/tokenize.js';

/** A workflow task ready to run. */
export interface PlannedTask {
  readonly id: string;
  readonly agent: CatalogAgent;
  /** The task's own fields (`user_request` and the agent's others); `{input}` is filled in when it runs. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** What an execution runs. */
export type RunPlan =
  | { readonly type: 'tool'; readonly tool: CatalogTool; readonly params: Record<string, unknown> }
  | { readonly type: 'agent'; readonly agent: CatalogAgent; readonly input: Record<string, unknown> }
  | { readonly type: 'workflow'; readonly tasks: readonly PlannedTask[]; readonly input: unknown; readonly inputs: Readonly<Record<string, unknown>> };

/** What a streamed run reports as it goes. */
export interface RunEvents {
  /** A promise: the stream's reader is behind (see `SseStream.ready`), the run waits for it before its next token. */
  token(delta: string): void | Promise<void>;
  step(taskId: string, status: 'started' | 'succeeded' | 'failed'): void;
}

/** How a run ended. */
export type RunOutcome = { readonly ok: true; readonly content: string } | { readonly ok: false; readonly error: OzMockError };

/** A new execution record's fields. */
export interface NewExecution {
  readonly account: string;
  readonly kind: ExecutionKind;
  readonly target: string;
  /** The `x-trace-id`, which becomes the id as given. */
  readonly id?: string | null;
  readonly input: Record<string, unknown>;
  readonly workflowId?: string | null;
  readonly taskId?: string | null;
  readonly followupAgent: string | null;
  readonly status: 'queued' | 'running';
  /** A workflow run's tasks, kept on the record (see `ExecutionRecord.tasks`). */
  readonly tasks?: readonly RunTaskRecord[];
}

/** What one agent call costs (micro-dollars): metered on the account's wallet. */
export const AGENT_CALL_MICROS = 1000;

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Fills `{input}` and `{inputs.name}` into a task's string fields. */
function fillTemplate(value: unknown, input: string, inputs: Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(/\{(input|inputs\.[A-Za-z0-9_-]+)\}/g, (_, name: string) => (name === 'input' ? input : String(inputs[name.slice(7)] ?? '')));
}

/** The longest poll interval an unfinished execution suggests: what it always suggested before (`Retry-After: 1`). */
export const MAX_POLL_HINT_MS = 1000;

/** What the runs' workers (the runner and the item walk) need of the server: the clock, the store, the work in flight, the state's lifetime and the pace. */
export interface RunsNeeds {
  readonly clock: ServerClock;
  readonly store: Store;
  readonly work: WorkTracker;
  readonly lifetime: StateLifetime;
  readonly options: { readonly timing: Timing };
}

/** Creates executions and runs them: in the request (sync, streamed) or in the background (async). */
export class Runner {
  /** When each sleeping run's current wait on the clock ends (its start, a step, a handler's `sleep`). */
  readonly #wakeAt = new Map<string, number>();
  /** The lifetime signal of the state each run began in: once it aborts, the run stops and writes nothing more. */
  readonly #lifetimeOf = new WeakMap<ExecutionRecord, AbortSignal>();

  readonly #parts: RunsNeeds;

  constructor(parts: RunsNeeds) {
    this.#parts = parts;
  }

  /**
   * The poll interval an unfinished execution suggests (`retry-after-ms`): until its current wait on the clock
   * ends, plus 1 ms for the work after it; half its age when it waits on something else (a handler's own
   * promise); one step (`timing.stepMs`) on a frozen clock, where only `advance` moves time, at any moment.
   * Between 1 ms and {@link MAX_POLL_HINT_MS}.
   */
  pollAfterMs(record: ExecutionRecord): number {
    const { clock, options } = this.#parts;
    const now = clock.now();
    const step = Math.max(1, options.timing.stepMs);
    const wake = this.#wakeAt.get(record.id);
    // On a frozen clock nothing moves until the test advances it: suggest the client's own floor, not a busy poll.
    const ms = clock.frozen ? Math.max(step, MIN_POLL_MS) : wake !== undefined ? wake - now + 1 : Math.max(step, (now - record.created_at) / 2);
    return Math.min(Math.max(1, Math.ceil(ms)), MAX_POLL_HINT_MS);
  }

  /** Waits on the clock for a run, noting when the wait ends (for {@link Runner.pollAfterMs}). */
  async #sleepFor(record: ExecutionRecord, ms: number): Promise<void> {
    if (ms <= 0) return;
    const until = this.#parts.clock.now() + ms;
    this.#wakeAt.set(record.id, until);
    try {
      await this.#parts.clock.sleep(ms);
    } finally {
      if (this.#wakeAt.get(record.id) === until) this.#wakeAt.delete(record.id);
    }
  }

  /** Stores a new execution record. */
  create(spec: NewExecution): ExecutionRecord {
    const now = this.#parts.clock.now();
    const record: ExecutionRecord = {
      id: spec.id ?? newId('exe'),
      account: spec.account,
      kind: spec.kind,
      target: spec.target,
      status: spec.status,
      content: null,
      error: null,
      workflow_id: spec.workflowId ?? null,
      task_id: spec.taskId ?? null,
      cost_micros: 0,
      created_at: now,
      updated_at: now,
      finished_at: null,
      input: spec.input,
      followup_agent: spec.followupAgent,
      spans: [],
    };
    if (spec.tasks) record.tasks = spec.tasks;
    this.#parts.store.data.executions.set(record.id, record);
    return record;
  }

  /**
   * Runs a plan for an execution and records the outcome. A tool whose handler answers at once finishes
   * synchronously (no promise); anything else answers a promise. Never throws.
   */
  execute(record: ExecutionRecord, plan: RunPlan, options: { events?: RunEvents; paced: boolean }): RunOutcome | Promise<RunOutcome> {
    this.#begin(record);
    if (plan.type === 'tool' && !options.events) {
      let out: string | Promise<string>;
      try {
        out = plan.tool.handler(plan.params, this.context(record));
      } catch (err) {
        return this.#finish(record, { ok: false, error: toMockError(err) });
      }
      if (!isThenable(out)) return this.#finish(record, { ok: true, content: String(out) });
      return this.#parts.work.track(
        out.then(
          (content) => this.#finish(record, { ok: true, content: String(content) }),
          (err: unknown) => this.#finish(record, { ok: false, error: toMockError(err) }),
        ),
      );
    }
    return this.#parts.work.track(
      this.#run(record, plan, options).then(
        (content) => this.#finish(record, { ok: true, content }),
        (err: unknown) => this.#finish(record, { ok: false, error: toMockError(err) }),
      ),
    );
  }

  /** Runs a queued execution in the background: it starts after one step of the clock. */
  runInBackground(record: ExecutionRecord, plan: RunPlan): void {
    const { signal } = this.#parts.lifetime;
    // Not awaited: the run goes on in the background. The work tracker holds it (and its rejection handler),
    // so `idle()` waits for it and a failure never goes unhandled.
    void this.#parts.work.track(
      (async () => {
        await this.#sleepFor(record, this.#parts.options.timing.stepMs);
        if (record.status !== 'queued' || signal.aborted) return;
        await this.execute(record, plan, { paced: true });
      })(),
    );
  }

  /** Ends a run that could not start (what it runs is gone): failed with the error, nothing charged. */
  failUnstarted(record: ExecutionRecord, err: unknown): void {
    const now = this.#parts.clock.now();
    Object.assign(record, { status: 'failed', error: { ...toMockError(err).toObject(), execution_id: record.id }, finished_at: now, updated_at: now });
    this.#parts.store.executionChanged(record);
  }

  /** The context a handler gets. */
  context(record: ExecutionRecord): RunContext {
    const clock = this.#parts.clock;
    return { account: record.account, executionId: record.id, now: () => clock.now(), sleep: (ms) => this.#sleepFor(record, ms) };
  }

  #begin(record: ExecutionRecord): void {
    this.#lifetimeOf.set(record, this.#parts.lifetime.signal);
    const now = this.#parts.clock.now();
    const wasRunning = record.status === 'running';
    record.status = 'running';
    record.updated_at = now;
    // A sync run is created running: its indexes hold it there already.
    if (!wasRunning) this.#parts.store.executionChanged(record);
    // The root span's id follows from the execution's (one random id less per run).
    record.spans.push({
      id: `spn_root_${record.id}`,
      parent_id: null,
      name: `${record.kind} ${record.target}`,
      status: 'running',
      started_at: now,
      ended_at: null,
      attributes: { kind: record.kind, target: record.target },
    });
  }

  #span(parent: string | null, name: string, now: number, attributes: Record<string, unknown>): SpanRecord {
    return { id: newId('spn'), parent_id: parent, name, status: 'running', started_at: now, ended_at: null, attributes };
  }

  async #run(record: ExecutionRecord, plan: RunPlan, options: { events?: RunEvents; paced: boolean }): Promise<string> {
    const context = this.context(record);
    if (plan.type === 'tool') return String(await plan.tool.handler(plan.params, context));
    if (plan.type === 'agent') return this.#callAgent(record, plan.agent, plan.input, context, options);

    const root = record.spans[0]!;
    const inputs = plan.inputs;
    let previous = plan.input === undefined || plan.input === null ? '' : typeof plan.input === 'string' ? plan.input : JSON.stringify(plan.input);
    for (const task of plan.tasks) {
      if (options.paced) await this.#sleepFor(record, this.#parts.options.timing.stepMs);
      this.#checkCancelled(record);
      const span = this.#span(root.id, `task ${task.id}`, this.#parts.clock.now(), { task_id: task.id, agent: task.agent.name });
      record.spans.push(span);
      options.events?.step(task.id, 'started');
      const fields: Record<string, unknown> = { user_request: '{input}', ...task.fields };
      for (const [k, v] of Object.entries(fields)) fields[k] = fillTemplate(v, previous, inputs);
      try {
        previous = await this.#callAgent(record, task.agent, fields, context, options);
      } catch (err) {
        span.status = 'error';
        span.ended_at = this.#parts.clock.now();
        options.events?.step(task.id, 'failed');
        throw err;
      }
      span.status = 'ok';
      span.ended_at = this.#parts.clock.now();
      options.events?.step(task.id, 'succeeded');
    }
    return previous;
  }

  async #callAgent(
    record: ExecutionRecord,
    agent: CatalogAgent,
    input: Record<string, unknown>,
    context: RunContext,
    options: { events?: RunEvents; paced: boolean },
  ): Promise<string> {
    // A workflow task's input is only known now (its fields and the previous task's output): the agent's card
    // judges it here.
    const problem = agent.check(input);
    if (problem) throw invalidParams(`Agent ${agent.name}: ${problem.message}`, problem.missing);
    record.cost_micros += AGENT_CALL_MICROS;
    const text = String(await agent.handler(input, context));
    if (options.events && agent.streaming) {
      for (const token of agent.tokens ? agent.tokens(text, input) : tokenize(text)) {
        this.#checkCancelled(record);
        const behind = options.events.token(token);
        if (behind) await behind;
        await paceToken(this.#parts.clock, this.#parts.options.timing.tokenMs);
      }
    }
    return text;
  }

  #checkCancelled(record: ExecutionRecord): void {
    if (this.#lifetimeOf.get(record)?.aborted) throw stateReset();
    if (record.status === 'cancelled') throw new OzMockError(409, 'execution_cancelled', `Execution ${record.id} was cancelled.`);
  }

  #finish(record: ExecutionRecord, outcome: RunOutcome): RunOutcome {
    // A run of a state that was reset, restored or replaced writes nothing: its record, account and indexes are gone.
    if (this.#lifetimeOf.get(record)?.aborted) return { ok: false, error: stateReset() };
    const now = this.#parts.clock.now();
    const root = record.spans[0];
    if (record.status === 'cancelled') {
      if (root && root.ended_at === null) {
        root.status = 'error';
        root.ended_at = now;
      }
      return { ok: false, error: new OzMockError(409, 'execution_cancelled', `Execution ${record.id} was cancelled.`) };
    }
    if (outcome.ok) {
      record.status = 'succeeded';
      record.content = outcome.content;
    } else {
      record.status = 'failed';
      record.error = { ...outcome.error.toObject(), execution_id: record.id } as ExecutionRecord['error'];
    }
    record.updated_at = now;
    record.finished_at = now;
    if (root) {
      root.status = outcome.ok ? 'ok' : 'error';
      root.ended_at = now;
    }
    if (record.cost_micros > 0) {
      const account = this.#parts.store.data.accounts.get(record.account);
      if (account) this.#parts.store.charge(account, record.cost_micros);
    }
    this.#parts.store.executionChanged(record);
    return outcome;
  }
}
