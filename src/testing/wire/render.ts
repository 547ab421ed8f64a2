import type { AsyncPointer, ErrorObject, Execution, ExecutionResult, Format } from '../../generated/types.js';
import { toYaml } from './yamlWire.js';

/** What a handler answers, before a wire is applied. */
export type Payload =
  /** A record or a list page: markdown as YAML lines, text as `key: value` lines. */
  | { readonly kind: 'record'; readonly value: object }
  /** An execution result envelope. */
  | { readonly kind: 'result'; readonly value: ExecutionResult }
  /** An async pointer (202). */
  | { readonly kind: 'pointer'; readonly value: AsyncPointer }
  /** An execution record (polling, cancel). */
  | { readonly kind: 'execution'; readonly value: Execution }
  /** An error object; `executionId` when the request created an execution. */
  | { readonly kind: 'error'; readonly value: ErrorObject; readonly executionId?: string | null };

/** The markdown footer that names an execution. */
export function footer(executionId: string): string {
  return `\n\n---\nexecution_id: ${executionId}\n`;
}

/** An error in markdown, as the brief's shared rendering says (footer when an execution was created). */
export function errorMarkdown(error: ErrorObject, executionId?: string | null): string {
  let out = `# Error: ${error.code}\n\n${error.message}\n`;
  const lines: string[] = [];
  if (Array.isArray(error.missing) && error.missing.length) lines.push(`- missing: ${error.missing.join(', ')}`);
  if (typeof error.contract === 'string') lines.push(`- contract: ${error.contract}`);
  if (typeof error.hint === 'string') lines.push(`- hint: ${error.hint}`);
  if (error.connect) lines.push(`- connect: ${connectLine(error.connect)}`);
  if (lines.length) out += `\n${lines.join('\n')}\n`;
  if (executionId) out += `\n---\nexecution_id: ${executionId}\n`;
  return out;
}

/** An error on the text wire: `code: message`, then `missing: a, b` when fields are missing. */
export function errorText(error: ErrorObject): string {
  let out = `${error.code}: ${error.message}\n`;
  if (Array.isArray(error.missing) && error.missing.length) out += `missing: ${error.missing.join(', ')}\n`;
  if (error.connect) out += `connect: ${connectLine(error.connect)}\n`;
  return out;
}

/** A 424's `connect` on the markdown and text wires: `<provider> <method> <link>` (the link is `METHOD /path`). */
function connectLine(connect: NonNullable<ErrorObject['connect']>): string {
  return `${connect.provider} ${connect.method} ${connect.link}`;
}

/**
 * An execution as the MCP server renders it: the content when it succeeded, the error when it failed, its
 * status while it runs; then the footer naming it.
 */
export function executionMarkdown(execution: Execution): string {
  if (execution.status === 'succeeded' && execution.content !== null) return execution.content + footer(execution.id);
  if (execution.error) return errorMarkdown(execution.error, execution.id);
  return `status: ${execution.status}` + footer(execution.id);
}

function executionText(execution: Execution): string {
  if (execution.status === 'succeeded' && execution.content !== null) return execution.content;
  if (execution.error) return errorText(execution.error);
  return `status: ${execution.status}\n`;
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value.includes('\n') ? JSON.stringify(value) : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function recordText(value: object): string {
  let out = '';
  for (const [key, v] of Object.entries(value)) out += `${key}: ${scalarText(v)}\n`;
  return out;
}

function pageText(value: { data: unknown[]; next_cursor: unknown }): string {
  return [...value.data.map((row) => recordText(row as object)), `next_cursor: ${scalarText(value.next_cursor)}\n`].join('\n');
}

function isPage(value: object): value is { data: unknown[]; next_cursor: unknown } {
  return Array.isArray((value as { data?: unknown }).data) && 'next_cursor' in value;
}

/** The body of a payload on a wire. */
export function renderPayload(payload: Payload, wire: Format): string {
  if (wire === 'json') {
    return JSON.stringify(payload.kind === 'error' ? { error: payload.value } : payload.value);
  }
  if (wire === 'yaml') return toYaml(payload.kind === 'error' ? { error: payload.value } : payload.value);
  switch (payload.kind) {
    case 'result':
      return wire === 'markdown' ? payload.value.content + footer(payload.value.execution_id) : payload.value.content;
    case 'pointer': {
      const p = payload.value;
      return `workflow_id: ${p.workflow_id ?? 'null'}\nexecution_id: ${p.execution_id}\ntask_id: ${p.task_id ?? 'null'}\nstatus: ${p.status}\n`;
    }
    case 'execution':
      return wire === 'markdown' ? executionMarkdown(payload.value) : executionText(payload.value);
    case 'error':
      return wire === 'markdown' ? errorMarkdown(payload.value, payload.executionId) : errorText(payload.value);
    case 'record':
      if (wire === 'markdown') return toYaml(payload.value);
      return isPage(payload.value) ? pageText(payload.value) : recordText(payload.value);
  }
}
