import { pacesStreams } from './streamPace.js';
import type { Reply } from './answer.js';
import type { ExecutionKind } from '../generated/types.js';
import type { RequestContext } from './context.js';
import { invalidParams, OzMockError } from './errors.js';
import { resultView } from './executionViews.js';
import { newId } from './ids.js';
import type { RunOutcome, RunPlan } from './runner.js';
import type { ServerCore } from './serverCore.js';
import type { ExecutionRecord } from './state.js';

/** What an execute route runs. */
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

/** The `stream` and `async` flags of an execute body (booleans by openapi.json), which exclude each other. */
export function runFlags(body: Record<string, unknown>): { stream: boolean; async: boolean } {
  if (body.stream === true && body.async === true) throw invalidParams('stream and async exclude each other.');
  return { stream: body.stream === true, async: body.async === true };
}

/**
 * The request's `x-trace-id` (the idempotency key): it becomes the execution id as given; one already used
 * answers 409 `duplicate_execution_id` (with `X-Execution-Id`). Call it before anything is written (its shape was
 * checked before the handler: see idempotency.ts).
 */
export function takeTraceId(ctx: RequestContext): string | null {
  const traceId = ctx.header('x-trace-id');
  if (traceId === null) return null;
  if (ctx.core.store.data.executions.has(traceId)) {
    ctx.executionId = traceId;
    throw new OzMockError(409, 'duplicate_execution_id', `Execution id ${traceId} was already used; this is a replay.`, {
      hint: 'Fetch the first run with GET /v1/executions/{id}.',
    });
  }
  return traceId;
}

const TIMEOUT = Symbol('timeout');

function withTimeout(core: ServerCore, run: Promise<RunOutcome>): Promise<RunOutcome | typeof TIMEOUT> {
  return new Promise((resolve) => {
    const timer = core.clock.timer(core.options.syncTimeoutMs, () => resolve(TIMEOUT), false);
    void run.then((outcome) => {
      timer.cancel();
      resolve(outcome);
    });
  });
}

/** Stores the execution of a run for an account: queued with a task id when async, else running. */
export function newExecution(core: ServerCore, account: string, run: RunRequest, traceId: string | null): ExecutionRecord {
  return core.runner.create({
    account,
    kind: run.kind,
    target: run.target,
    id: traceId,
    input: run.input,
    workflowId: run.workflowId ?? null,
    taskId: run.async ? newId('tsk') : null,
    followupAgent: run.followupAgent,
    status: run.async ? 'queued' : 'running',
  });
}

/** Creates the execution of a request (it then belongs to the answer: `X-Execution-Id`). */
export function createExecution(ctx: RequestContext, run: RunRequest, traceId: string | null): ExecutionRecord {
  const record = newExecution(ctx.core, ctx.account.name, run, traceId);
  ctx.executionId = record.id;
  ctx.createdExecution = true;
  return record;
}

/**
 * Runs an execute request: async answers 202 with the pointer at once; sync waits for the run and answers the
 * result envelope, or the run's error (a run past `syncTimeoutMs` answers 504 `timeout` and goes on).
 */
export async function respondWithRun(ctx: RequestContext, run: RunRequest, traceId: string | null): Promise<Reply> {
  const core = ctx.core;
  const record = createExecution(ctx, run, traceId);
  if (run.async) return respondWithPointer(ctx, record, run.plan);
  const outcome = await runSync(core, record, run);
  if (!outcome.ok) throw outcome.error;
  return ctx.reply(200, { kind: 'result', value: resultView(record, ctx.requestId) });
}

/** Runs a queued execution in the background and answers 202 with its async pointer at once. */
export function respondWithPointer(ctx: RequestContext, record: ExecutionRecord, plan: RunPlan): Reply {
  ctx.core.runner.runInBackground(record, plan);
  return ctx.reply(202, {
    kind: 'pointer',
    value: { workflow_id: record.workflow_id, execution_id: record.id, task_id: record.task_id, status: 'queued' },
  });
}

/**
 * Runs an execution in the request and answers its outcome; past `syncTimeoutMs` the outcome is 504
 * `timeout` (the run goes on).
 */
export async function runSync(core: ServerCore, record: ExecutionRecord, run: RunRequest): Promise<RunOutcome> {
  const outcome = core.runner.execute(record, run.plan, { paced: false });
  if (!(outcome instanceof Promise)) return outcome;
  const settled = await withTimeout(core, outcome);
  if (settled !== TIMEOUT) return settled;
  return {
    ok: false,
    error: new OzMockError(504, 'timeout', `The run did not finish within ${core.options.syncTimeoutMs} ms; it goes on.`, {
      hint: 'Poll GET /v1/executions/{id} for its outcome.',
      retryAfter: 1,
    }),
  };
}

/**
 * Runs an execute request as a server-sent event stream: `token` (and `step` on workflows) events as the run
 * goes, then exactly one `result` or `error`. The run goes on if the client leaves.
 */
export function respondWithStream(ctx: RequestContext, run: RunRequest, traceId: string | null): Reply {
  const core = ctx.core;
  const record = createExecution(ctx, { ...run, async: false }, traceId);
  const stream = ctx.openStream();
  const outcome = core.runner.execute(record, run.plan, {
    paced: pacesStreams(core.clock),
    events: {
      token: (delta) => stream.send('token', JSON.stringify({ delta })),
      step: (taskId, status) => stream.send('step', JSON.stringify({ task_id: taskId, status })),
    },
  });
  void Promise.resolve(outcome).then((o) => {
    if (o.ok) stream.send('result', JSON.stringify(resultView(record, ctx.requestId)));
    else stream.send('error', JSON.stringify({ error: { ...o.error.toObject(), execution_id: record.id } }));
    stream.close();
  });
  return ctx.stream(stream);
}
