import type { Execution } from '../../../src/index.js';

/**
 * An execution record as `GET /v1/executions/{id}` answers it: a run of the `echo` tool, its content `first run
 * result` once succeeded, `finished_at` set once finished; `extra` overrides any field.
 */
export function executionRecord(id: string, status: Execution['status'], extra: Partial<Execution> = {}): Execution {
  const finished = status !== 'queued' && status !== 'running';
  return {
    id,
    kind: 'tool',
    target: 'echo',
    status,
    content: status === 'succeeded' ? 'first run result' : null,
    error: null,
    workflow_id: null,
    task_id: null,
    cost_usd: 0,
    created_at: '2026-11-21T12:00:00.000Z',
    updated_at: '2026-11-21T12:00:00.000Z',
    finished_at: finished ? '2026-11-21T12:00:01.000Z' : null,
    ...extra,
  };
}
