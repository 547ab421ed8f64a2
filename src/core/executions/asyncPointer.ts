import { OzError } from '../errors/errors.js';

/** The async pointer of an async run (HTTP 202), as the core reads it on any wire. */
export interface AsyncPointerAnswer {
  workflow_id: string | null;
  execution_id: string;
  task_id: string | null;
  status: 'queued' | 'running';
}

/**
 * Reads an async pointer from the markdown and text wires: its four top-level keys, one `key: value` per line
 * (`null` is null).
 */
export function parsePointerLines(text: string): AsyncPointerAnswer {
  const fields: Record<string, string | null> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(workflow_id|execution_id|task_id|status):\s*(.*?)\s*$/.exec(line);
    if (match) fields[match[1]!] = match[2] === 'null' || match[2] === '' ? null : match[2]!;
  }
  const { execution_id: executionId, status } = fields;
  if (!executionId || (status !== 'queued' && status !== 'running')) {
    throw new OzError('The 202 answer is not an async pointer (`execution_id` and `status: queued|running` lines).');
  }
  return { workflow_id: fields.workflow_id ?? null, execution_id: executionId, task_id: fields.task_id ?? null, status };
}
