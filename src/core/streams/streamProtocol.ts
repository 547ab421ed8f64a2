import type { ErrorBody } from '../errors/errorShape.js';
import { apiErrorFor, statusForCode, type OzAPIError } from '../errors/apiErrors.js';
import type { SseEvent } from './sseReader.js';
import { OzStreamProtocolError } from './streamErrors.js';
import { plainTokenData } from './tokenData.js';

/**
 * The two kinds of event stream the service sends:
 * - `events` (execute streams): `token` (`{delta}`), `step` (`{task_id, status}`), then one closing `result`
 *   (the execution result envelope) or `error` (the error envelope);
 * - `chat` (chat completions): data-only OpenAI `chat.completion.chunk` events, then `data: [DONE]`.
 */
export type StreamMode = 'events' | 'chat';

/** The response headers an event's error is read with. */
export interface StreamMeta {
  executionId: string | undefined;
  requestId: string | undefined;
}

/** What one server-sent event means: an item to hand out, nothing, the end of a chat stream, or an error. */
export type StreamStep<E> =
  { kind: 'item'; item: E; text: string | undefined; closing: boolean } | { kind: 'skip' } | { kind: 'done' } | { kind: 'error'; error: OzAPIError };

const EXECUTE_EVENTS = new Set(['token', 'step', 'result', 'error']);

/**
 * Reads one event of a stream of `mode`. Events of an execute stream with another name (or none) are skipped,
 * so a newer service's new event kinds do not break older SDKs.
 */
export function readStreamEvent<E>(mode: StreamMode, message: SseEvent, meta: StreamMeta): StreamStep<E> {
  const name = message.event;
  if (mode === 'chat') {
    if (message.data.trim() === '[DONE]') return { kind: 'done' };
    const data = parseObject(name, message.data);
    // OpenAI-compatible servers report a failure mid-stream as a data event carrying `error`.
    if (name === 'error' || (data.error !== undefined && data.choices === undefined)) return { kind: 'error', error: errorOf(name, message.data, data, meta) };
    const item = data as E;
    return { kind: 'item', item, text: textOf('chat', item), closing: false };
  }
  if (!EXECUTE_EVENTS.has(name)) return { kind: 'skip' };
  if (name === 'token') {
    const data = plainTokenData(message.data);
    if (data !== undefined) {
      const item = { event: name, data } as E;
      return { kind: 'item', item, text: textOf('events', item), closing: false };
    }
  }
  const data = parseObject(name, message.data);
  if (name === 'error') return { kind: 'error', error: errorOf(name, message.data, data, meta) };
  const item = { event: name, data } as E;
  return { kind: 'item', item, text: textOf('events', item), closing: name === 'result' };
}

/** The text delta an item carries: a `token`'s `delta`, or a chat chunk's `choices[0].delta.content`. */
export function textOf(mode: StreamMode, item: unknown): string | undefined {
  let text: unknown;
  if (mode === 'chat') {
    const choices = (item as { choices?: unknown }).choices;
    text = Array.isArray(choices) ? (choices[0] as { delta?: { content?: unknown } } | undefined)?.delta?.content : undefined;
  } else {
    const event = item as { event?: unknown; data?: { delta?: unknown } };
    text = event.event === 'token' ? event.data?.delta : undefined;
  }
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/** The `result` event's data of an item, if it is one. */
export function resultOf(mode: StreamMode, item: unknown): { data: unknown } | undefined {
  if (mode !== 'events') return undefined;
  const event = item as { event?: unknown; data?: unknown };
  return event.event === 'result' ? { data: event.data } : undefined;
}

/** One item written back as a server-sent event, as the service sends it. */
export function eventText(mode: StreamMode, item: unknown): string {
  if (mode === 'chat') return `data: ${JSON.stringify(item)}\n\n`;
  const { event, data } = item as { event: string; data: unknown };
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The closing `error` event of an API error, as the service sends it. */
export function errorEventText(error: OzAPIError): string {
  const body: ErrorBody = error.error ?? { code: error.code, message: error.message };
  return `event: error\ndata: ${JSON.stringify({ error: body })}\n\n`;
}

/** The end of a chat stream. */
export const CHAT_DONE = 'data: [DONE]\n\n';

function parseObject(name: string, data: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (cause) {
    throw new OzStreamProtocolError(name, data, { cause });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new OzStreamProtocolError(name, data);
  return parsed as Record<string, unknown>;
}

/**
 * The typed error of an error event: the class of its code (with the code's usual status), carrying the
 * stream's `x-request-id` and `X-Execution-Id`. OpenAI-style errors may carry `type` instead of `code`.
 */
function errorOf(name: string, raw: string, data: Record<string, unknown>, meta: StreamMeta): OzAPIError {
  const error = data.error;
  if (typeof error !== 'object' || error === null) throw new OzStreamProtocolError(name, raw);
  const fields = error as Partial<ErrorBody> & { type?: unknown };
  const code = typeof fields.code === 'string' ? fields.code : typeof fields.type === 'string' ? fields.type : 'internal_error';
  const message = typeof fields.message === 'string' ? fields.message : 'The stream reported an error without a message.';
  const body: ErrorBody = { ...fields, code, message };
  const headers = new Headers({ 'x-error-code': code });
  const executionId = meta.executionId ?? body.execution_id;
  if (executionId) headers.set('x-execution-id', executionId);
  if (meta.requestId) headers.set('x-request-id', meta.requestId);
  return apiErrorFor(statusForCode(code), headers, body);
}
