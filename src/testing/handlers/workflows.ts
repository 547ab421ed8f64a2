import type { Workflow, WorkflowCreateRequest, WorkflowDefinition, WorkflowTask } from '../../generated/types.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { invalidParams, notFound, OzMockError } from '../contract/errors.js';
import { respondWithRun, respondWithStream, runFlags, takeTraceId } from './shared/executionFlow.js';
import type { RunRequest } from '../runs/runStart.js';
import { paginateIndex } from './shared/pagination.js';
import { componentCheck, invalidParamsOf } from '../pipeline/steps/validate.js';
import type { PlannedTask } from '../runs/runner.js';
import type { WorkflowRecord } from '../state/state.js';
import { isoTime } from '../support/isoTime.js';
import { fenceAdmits } from './shared/toolFence.js';

/** The API's view of a stored workflow. */
export function workflowView(w: WorkflowRecord): Workflow {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    tasks: w.tasks,
    created_at: isoTime(w.created_at),
    updated_at: isoTime(w.updated_at),
  };
}

const TOP_LEVEL_CONTROLS = new Set(['format', 'input', 'inputs', 'async']);

/**
 * The engine's check of a workflow's tasks, valid `WorkflowTask`s already: ids unique, `type: task`, a known
 * agent each, one the key's tool fence admits.
 */
function planTasks(ctx: RequestContext, tasks: readonly WorkflowTask[]): PlannedTask[] {
  const seen = new Set<string>();
  return tasks.map((task, i) => {
    const { id, type, agent, ...fields } = task;
    if (seen.has(id)) throw invalidParams(`Task id ${id} appears twice.`);
    seen.add(id);
    if (type !== 'task') throw invalidParams(`tasks[${i}].type must be task.`);
    const found = ctx.parts.store.catalog.agents.get(agent);
    if (!found || !fenceAdmits(ctx, found.name)) throw invalidParams(`tasks[${i}].agent names no agent: ${agent}.`);
    return { id, agent: found, fields };
  });
}

/** A workflow definition checked against openapi.json's `WorkflowDefinition`, then by the engine. */
function checkDefinition(ctx: RequestContext, def: Record<string, unknown>): { name: string; tasks: PlannedTask[] } {
  const problem = componentCheck('WorkflowDefinition')(def);
  if (problem) throw invalidParamsOf(ctx, problem);
  const valid = def as unknown as WorkflowDefinition;
  return { name: valid.name, tasks: planTasks(ctx, valid.tasks) };
}

function runInputs(body: Record<string, unknown>): Record<string, unknown> {
  return (body.inputs as Record<string, unknown> | null | undefined) ?? {};
}

/**
 * An inline workflow run: `{workflow: {...}, input, inputs, format, async}` or the workflow itself at the top
 * level; `format`, `input`, `inputs` (and `async`) are removed before the engine sees the workflow.
 */
function inlineRun(ctx: RequestContext, asyncRun: boolean): RunRequest {
  const body = ctx.body;
  let def: Record<string, unknown>;
  if (body.workflow !== undefined) {
    def = body.workflow as Record<string, unknown>;
  } else {
    def = {};
    for (const key in body) if (!TOP_LEVEL_CONTROLS.has(key) && key !== 'stream') def[key] = body[key];
  }
  const { name, tasks } = checkDefinition(ctx, def);
  const inputs = runInputs(body);
  return {
    kind: 'workflow',
    target: name,
    input: { input: body.input ?? null, inputs },
    plan: { type: 'workflow', tasks, input: body.input, inputs },
    async: asyncRun,
    workflowId: null,
    followupAgent: tasks[tasks.length - 1]!.agent.name,
  };
}

function findWorkflow(ctx: RequestContext): WorkflowRecord {
  const name = ctx.params.name!;
  const found = ctx.parts.store.workflowByName(ctx.account.name, name);
  if (!found) throw notFound('workflow', `No stored workflow named ${name}.`);
  return found;
}

function storedRun(ctx: RequestContext, asyncRun: boolean): RunRequest {
  const w = findWorkflow(ctx);
  const tasks = planTasks(ctx, w.tasks);
  const inputs = runInputs(ctx.body);
  return {
    kind: 'workflow',
    target: w.name,
    input: { input: ctx.body.input ?? null, inputs },
    plan: { type: 'workflow', tasks, input: ctx.body.input, inputs },
    async: asyncRun,
    workflowId: w.id,
    followupAgent: tasks[tasks.length - 1]!.agent.name,
  };
}

function asyncFlag(ctx: RequestContext): boolean {
  return runFlags(ctx.body).async;
}

/** `POST /v1/workflows/execute`. */
export const executeWorkflow: OperationHandler = (ctx) => {
  const run = inlineRun(ctx, asyncFlag(ctx));
  return respondWithRun(ctx, run, takeTraceId(ctx));
};

/** `POST /v1/workflows/execute-stream`. */
export const executeWorkflowStream: OperationHandler = (ctx) => {
  const run = inlineRun(ctx, false);
  return respondWithStream(ctx, run, takeTraceId(ctx));
};

/** `POST /v1/workflows/{name}/execute`. */
export const executeStoredWorkflow: OperationHandler = (ctx) => {
  const run = storedRun(ctx, asyncFlag(ctx));
  return respondWithRun(ctx, run, takeTraceId(ctx));
};

/** `POST /v1/workflows/{name}/execute-stream`. */
export const executeStoredWorkflowStream: OperationHandler = (ctx) => {
  const run = storedRun(ctx, false);
  return respondWithStream(ctx, run, takeTraceId(ctx));
};

/** `GET /v1/workflows`: the account's stored workflows by name. */
export const listWorkflows: OperationHandler = (ctx) => {
  const account = ctx.account.name;
  const map = ctx.parts.store.data.workflows;
  const list = {
    map,
    index: account,
    descending: false,
    locate: (name: string) => (map.find(account, name) ? name : undefined),
    cursorOf: (w: WorkflowRecord) => w.name,
  };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, workflowView) });
};

/** `POST /v1/workflows`: stores a workflow (409 `already_exists` for a name in use). */
export const createWorkflow: OperationHandler = (ctx) => {
  const { format: _format, ...fields } = ctx.body;
  const def = fields as unknown as WorkflowCreateRequest;
  planTasks(ctx, def.tasks);
  if (ctx.parts.store.workflowByName(ctx.account.name, def.name)) {
    throw new OzMockError(409, 'already_exists', `A workflow named ${def.name} exists already.`, { hint: 'Delete it first, or pick another name.' });
  }
  const record = ctx.parts.store.addWorkflow({
    account: ctx.account.name,
    name: def.name,
    description: def.description ?? null,
    tasks: def.tasks,
  });
  return ctx.reply(201, { kind: 'record', value: workflowView(record) });
};

/** `GET /v1/workflows/{name}`. */
export const getWorkflow: OperationHandler = (ctx) => ctx.reply(200, { kind: 'record', value: workflowView(findWorkflow(ctx)) });

/** `DELETE /v1/workflows/{name}`. */
export const deleteWorkflow: OperationHandler = (ctx) => {
  const w = findWorkflow(ctx);
  ctx.parts.store.data.workflows.delete(w.id);
  return ctx.reply(200, { kind: 'record', value: { id: w.id, deleted: true } });
};
