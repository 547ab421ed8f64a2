import type { Execution, ExecutionResult, Trace } from '../../generated/types.js';
import { isoTime as iso } from '../support/isoTime.js';
import type { ExecutionRecord } from './state.js';

/** Micro-dollars as a dollar amount (six decimals, no float drift). */
export function usd(micros: number): number {
  return Math.round(micros) / 1e6;
}

/** The API's view of an execution record. */
export function executionView(r: ExecutionRecord): Execution {
  return {
    id: r.id,
    kind: r.kind,
    target: r.target,
    status: r.status,
    content: r.content,
    error: r.error,
    workflow_id: r.workflow_id,
    task_id: r.task_id,
    cost_usd: usd(r.cost_micros),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    finished_at: r.finished_at === null ? null : iso(r.finished_at),
  };
}

/** The execution result envelope of a succeeded execution. */
export function resultView(r: ExecutionRecord, requestId: string): ExecutionResult {
  return { ok: true, content: r.content ?? '', execution_id: r.id, request_id: requestId };
}

/** The trace of an execution. */
export function traceView(r: ExecutionRecord): Trace {
  return {
    execution_id: r.id,
    spans: r.spans.map((s) => ({
      id: s.id,
      parent_id: s.parent_id,
      name: s.name,
      status: s.status,
      started_at: iso(s.started_at),
      ended_at: s.ended_at === null ? null : iso(s.ended_at),
      attributes: s.attributes,
    })),
  };
}
