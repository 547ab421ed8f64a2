import { pacesStreams } from '../../wire/streamPace.js';
import type { Reply } from '../../wire/requestOutcome.js';
import type { RequestContext } from '../../pipeline/requestContext.js';
import { invalidParams, OzMockError } from '../../contract/errors.js';
import { resultView } from '../../state/executionViews.js';
import type { RunPlan } from '../../runs/runner.js';
import { newExecution, runSync, type RunRequest } from '../../runs/runStart.js';
import type { ExecutionRecord } from '../../state/state.js';

/** The `stream` and `async` flags of an execute body (booleans by openapi.json), which exclude each other. */
export function runFlags(body: Record<string, unknown>): { stream: boolean; async: boolean } {
  if (body.stream === true && body.async === true) throw invalidParams('stream and async exclude each other.');
  return { stream: body.stream === true, async: body.async === true };
}

/**
 * The request's `x-trace-id` (the idempotency key): it becomes the execution id as given; one already used
 * answers 409 `duplicate_execution_id` (with `X-Execution-Id`). Call it before anything is written (its shape was
 * checked before the handler: see pipeline/steps/traceId.ts).
 */
export function takeTraceId(ctx: RequestContext): string | null {
  const traceId = ctx.header('x-trace-id');
  if (traceId === null) return null;
  if (ctx.parts.store.data.executions.has(traceId)) {
    ctx.executionId = traceId;
    throw new OzMockError(409, 'duplicate_execution_id', `Execution id ${traceId} was already used; this is a replay.`, {
      hint: 'Fetch the first run with GET /v1/executions/{id}.',
    });
  }
  return traceId;
}

/** Creates the execution of a request (it then belongs to the answer: `X-Execution-Id`). */
export function createExecution(ctx: RequestContext, run: RunRequest, traceId: string | null): ExecutionRecord {
  const record = newExecution(ctx.parts.runner, ctx.account.name, run, traceId);
  ctx.executionId = record.id;
  ctx.createdExecution = true;
  return record;
}

/**
 * Runs an execute request: async answers 202 with the pointer at once; sync waits for the run and answers the
 * result envelope, or the run's error (a run past `syncTimeoutMs` answers 504 `timeout` and goes on).
 */
export async function respondWithRun(ctx: RequestContext, run: RunRequest, traceId: string | null): Promise<Reply> {
  const record = createExecution(ctx, run, traceId);
  if (run.async) return respondWithPointer(ctx, record, run.plan);
  const outcome = await runSync(ctx.parts, record, run);
  if (!outcome.ok) throw outcome.error;
  return ctx.reply(200, { kind: 'result', value: resultView(record, ctx.requestId) });
}

/** Runs a queued execution in the background and answers 202 with its async pointer at once. */
export function respondWithPointer(ctx: RequestContext, record: ExecutionRecord, plan: RunPlan): Reply {
  ctx.parts.runner.runInBackground(record, plan);
  return ctx.reply(202, {
    kind: 'pointer',
    value: { workflow_id: record.workflow_id, execution_id: record.id, task_id: record.task_id, status: 'queued' },
  });
}

/**
 * Runs an execute request as a server-sent event stream: `token` (and `step` on workflows) events as the run
 * goes, then exactly one `result` or `error`. The run goes on if the client leaves.
 */
export function respondWithStream(ctx: RequestContext, run: RunRequest, traceId: string | null): Reply {
  const record = createExecution(ctx, { ...run, async: false }, traceId);
  const stream = ctx.openStream();
  const outcome = ctx.parts.runner.execute(record, run.plan, {
    paced: pacesStreams(ctx.parts.clock),
    events: {
      token: (delta) => {
        stream.send('token', JSON.stringify({ delta }));
        return stream.ready();
      },
      step: (taskId, status) => stream.send('step', JSON.stringify({ task_id: taskId, status })),
    },
  });
  void Promise.resolve(outcome).then((o) => {
    if (o.ok) stream.send('result', JSON.stringify(resultView(record, ctx.requestId)));
    else stream.send('error', JSON.stringify({ error: ctx.errorObject(o.error) }));
    stream.close();
  });
  return ctx.stream(stream);
}
