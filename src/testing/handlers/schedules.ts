import type { ExecutionKind, Schedule } from '../../generated/types.js';
import type { RequestContext } from '../context.js';
import { isTimeZone, nextCronRun, parseCron } from '../cron.js';
import type { OperationHandler } from '../dispatch.js';
import { invalidParams, notFound } from '../errors.js';
import { createExecution, takeTraceId } from '../executionFlow.js';
import { newId } from '../ids.js';
import { locateById, paginateIndex } from '../pagination.js';
import { isPlainObject, requireFields } from '../paramCheck.js';
import type { ScheduleRecord } from '../state.js';
import { scheduleRun } from '../scheduler.js';

const TARGET_KINDS: ReadonlySet<string> = new Set<ExecutionKind>(['tool', 'agent', 'workflow']);

/** The API's view of a schedule. */
export function scheduleView(s: ScheduleRecord): Schedule {
  return {
    id: s.id,
    name: s.name,
    cron: s.cron,
    timezone: s.timezone,
    target: { ...s.target },
    input: s.input,
    enabled: s.enabled,
    next_run_at: s.next_run_at === null ? null : new Date(s.next_run_at).toISOString(),
    created_at: new Date(s.created_at).toISOString(),
  };
}

function findSchedule(ctx: RequestContext): ScheduleRecord {
  const s = ctx.core.store.data.schedules.get(ctx.params.id!);
  if (!s || s.account !== ctx.account.name) throw notFound(`No schedule ${ctx.params.id}.`);
  return s;
}

/** `GET /v1/schedules`. */
export const listSchedules: OperationHandler = (ctx) => {
  const account = ctx.account.name;
  const map = ctx.core.store.data.schedules;
  const list = { map, index: account, descending: false, locate: locateById(map, (s) => s.account === account), cursorOf: (s: ScheduleRecord) => s.id };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, scheduleView) });
};

/** `POST /v1/schedules`: validates the cron, the time zone and the target; answers 201. */
export const createSchedule: OperationHandler = (ctx) => {
  const b = ctx.body;
  requireFields(b, ['name', 'cron', 'target']);
  if (typeof b.name !== 'string' || b.name.length < 1 || b.name.length > 100) throw invalidParams('name must be a string of 1 to 100 characters.');
  const cron = typeof b.cron === 'string' ? parseCron(b.cron) : null;
  if (!cron) throw invalidParams('cron must be a five-field cron expression.');
  const timezone = b.timezone ?? 'UTC';
  if (typeof timezone !== 'string' || !isTimeZone(timezone)) throw invalidParams('timezone must be an IANA time zone.');
  if (!isPlainObject(b.target) || typeof b.target.kind !== 'string' || !TARGET_KINDS.has(b.target.kind) || typeof b.target.name !== 'string') {
    throw invalidParams('target must be {kind: tool|agent|workflow, name}.');
  }
  const { kind, name } = b.target as { kind: ExecutionKind; name: string };
  const store = ctx.core.store;
  const exists = kind === 'tool' ? store.catalog.tools.has(name) : kind === 'agent' ? store.catalog.agents.has(name) : !!store.workflowByName(ctx.account.name, name);
  if (!exists) throw invalidParams(`target names no ${kind}: ${name}.`);
  if (b.input !== undefined && !isPlainObject(b.input)) throw invalidParams('input must be an object.');
  if (b.enabled !== undefined && typeof b.enabled !== 'boolean') throw invalidParams('enabled must be a boolean.');
  const now = ctx.core.clock.now();
  const enabled = b.enabled !== false;
  const record: ScheduleRecord = {
    id: newId('sch'),
    account: ctx.account.name,
    name: b.name,
    cron: (b.cron as string).trim(),
    timezone,
    target: { kind, name },
    input: (b.input as Record<string, unknown> | undefined) ?? {},
    enabled,
    next_run_at: enabled ? nextCronRun(cron, timezone, now) : null,
    created_at: now,
  };
  store.data.schedules.set(record.id, record);
  ctx.core.scheduler.arm(record);
  return ctx.reply(201, { kind: 'record', value: scheduleView(record) });
};

/** `GET /v1/schedules/{id}`. */
export const getSchedule: OperationHandler = (ctx) => ctx.reply(200, { kind: 'record', value: scheduleView(findSchedule(ctx)) });

/** `DELETE /v1/schedules/{id}`. */
export const deleteSchedule: OperationHandler = (ctx) => {
  const s = findSchedule(ctx);
  ctx.core.store.data.schedules.delete(s.id);
  return ctx.reply(200, { kind: 'record', value: { id: s.id, deleted: true } });
};

/** `POST /v1/schedules/{id}/run`: runs the target now, in the background; answers 202 with the pointer. */
export const runSchedule: OperationHandler = (ctx) => {
  const s = findSchedule(ctx);
  const run = scheduleRun(ctx.core, s);
  const record = createExecution(ctx, run, takeTraceId(ctx));
  ctx.core.runner.runInBackground(record, run.plan);
  return ctx.reply(202, {
    kind: 'pointer',
    value: { workflow_id: record.workflow_id, execution_id: record.id, task_id: record.task_id, status: 'queued' },
  });
};
