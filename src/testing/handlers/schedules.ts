import type { Schedule, ScheduleCreateRequest } from '../../generated/types.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import { isTimeZone, nextCronRun, parseCron } from '../support/cron.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { invalidParams, notFound } from '../contract/errors.js';
import { createExecution, respondWithPointer, takeTraceId } from './shared/executionFlow.js';
import { newId } from '../support/ids.js';
import { locateById, paginateIndex } from './shared/pagination.js';
import type { ScheduleRecord } from '../state/state.js';
import { scheduleRun } from '../runs/scheduler.js';
import { isoTime } from '../support/isoTime.js';

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
    next_run_at: s.next_run_at === null ? null : isoTime(s.next_run_at),
    created_at: isoTime(s.created_at),
  };
}

function findSchedule(ctx: RequestContext): ScheduleRecord {
  const s = ctx.parts.store.data.schedules.get(ctx.params.id!);
  if (!s || s.account !== ctx.account.name) throw notFound('schedule', `No schedule ${ctx.params.id}.`);
  return s;
}

/** `GET /v1/schedules`. */
export const listSchedules: OperationHandler = (ctx) => {
  const account = ctx.account.name;
  const map = ctx.parts.store.data.schedules;
  const list = { map, index: account, descending: false, locate: locateById(map, (s) => s.account === account), cursorOf: (s: ScheduleRecord) => s.id };
  return ctx.reply(200, { kind: 'record', value: paginateIndex(ctx, list, scheduleView) });
};

/**
 * `POST /v1/schedules`: the body was validated against `ScheduleCreateRequest`; here the cron, the time zone
 * and the target's existence. Answers 201.
 */
export const createSchedule: OperationHandler = (ctx) => {
  const b = ctx.body as ScheduleCreateRequest;
  const cron = parseCron(b.cron);
  if (!cron) throw invalidParams('cron must be a five-field cron expression.');
  const timezone = b.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) throw invalidParams('timezone must be an IANA time zone.');
  const { kind, name } = b.target;
  const store = ctx.parts.store;
  const exists =
    kind === 'tool' ? store.catalog.tools.has(name) : kind === 'agent' ? store.catalog.agents.has(name) : !!store.workflowByName(ctx.account.name, name);
  if (!exists) throw invalidParams(`target names no ${kind}: ${name}.`);
  const now = ctx.parts.clock.now();
  const enabled = b.enabled !== false;
  const record: ScheduleRecord = {
    id: newId('sch'),
    account: ctx.account.name,
    name: b.name,
    cron: b.cron.trim(),
    timezone,
    target: { kind, name },
    input: b.input ?? {},
    enabled,
    next_run_at: enabled ? nextCronRun(cron, timezone, now) : null,
    created_at: now,
  };
  store.data.schedules.set(record.id, record);
  ctx.parts.scheduler.arm(record);
  return ctx.reply(201, { kind: 'record', value: scheduleView(record) });
};

/** `GET /v1/schedules/{id}`. */
export const getSchedule: OperationHandler = (ctx) => ctx.reply(200, { kind: 'record', value: scheduleView(findSchedule(ctx)) });

/** `DELETE /v1/schedules/{id}`. */
export const deleteSchedule: OperationHandler = (ctx) => {
  const s = findSchedule(ctx);
  ctx.parts.store.data.schedules.delete(s.id);
  return ctx.reply(200, { kind: 'record', value: { id: s.id, deleted: true } });
};

/** `POST /v1/schedules/{id}/run`: runs the target now, in the background; answers 202 with the pointer. */
export const runSchedule: OperationHandler = (ctx) => {
  const s = findSchedule(ctx);
  const run = scheduleRun(ctx.parts.store, s);
  return respondWithPointer(ctx, createExecution(ctx, run, takeTraceId(ctx)), run.plan);
};
