import { invalidParams } from '../../contract/errors.js';
import { OPENAPI_DOCUMENT, type OperationInfo } from '../../contract/operations.js';
import { interpretedCheck } from '../../contract/schemaInterpreter.js';
import type { SchemaCheck } from '../../contract/schemaValidation.js';
import { isPlainObject } from '../../support/plainObject.js';
import type { ServerClock } from '../../time/clock.js';
import type { SseStream } from '../../wire/sseStream.js';

/** One event of a streamed stub answer: see {@link StubAnswer.events}. */
export interface StubEvent {
  /** The event's name (`token`, `step`, `result`, `error`); none on chat completion chunks. */
  readonly event?: string;
  /** The event's data: an object (sent as JSON) or a string (sent as it is). */
  readonly data: unknown;
  /** Milliseconds of the server's clock before this event (default 0); a frozen clock waits for an advance. */
  readonly delayMs?: number;
}

/** Where a streamed stub answer drops the connection: after this many events. */
export interface StubCut {
  readonly afterEvents: number;
}

const EVENT_FIELDS = ['event', 'data', 'delayMs'];

/** The component one event of each kind of stream must fit: execute streams by name, chat streams as chunks. */
const EVENT_SCHEMA: Readonly<Record<'execute' | 'chat', string>> = { execute: 'ExecuteStreamEvent', chat: 'ChatCompletionChunk' };
const checks = new Map<string, SchemaCheck>();

function eventCheck(kind: 'execute' | 'chat', at: string): SchemaCheck {
  const key = `${kind} ${at}`;
  let check = checks.get(key);
  if (!check) {
    check = interpretedCheck({ $ref: `#/components/schemas/${EVENT_SCHEMA[kind]}`, components: OPENAPI_DOCUMENT.components }, at);
    checks.set(key, check);
  }
  return check;
}

/** Whether a request of the operation asks for a stream (`stream: true`, or an operation that always streams). */
export function requestStreams(op: OperationInfo, body: Readonly<Record<string, unknown>>): boolean {
  return op.streaming === 'always' || (op.streaming !== 'none' && body.stream === true);
}

/** Checks the shape of `events` and `cut` (a `TypeError` names the field). */
export function checkEventsShape(events: unknown, cut: unknown, at: string): void {
  if (!Array.isArray(events) || events.length === 0) throw new TypeError(`${at}.events must be a non-empty array of { event, data, delayMs }`);
  events.forEach((e, i) => {
    const here = `${at}.events[${i}]`;
    if (!isPlainObject(e)) throw new TypeError(`${here} must be an object: { event, data, delayMs }`);
    for (const k of Object.keys(e)) if (!EVENT_FIELDS.includes(k)) throw new TypeError(`${here}.${k} is not a field (known: ${EVENT_FIELDS.join(', ')})`);
    if (e.event !== undefined && (typeof e.event !== 'string' || !/^[\w.-]+$/.test(e.event)))
      throw new TypeError(`${here}.event must be a name of letters, digits, _ . or -`);
    if (e.data === undefined) throw new TypeError(`${here}.data is required`);
    if (typeof e.data === 'string' && /[\r\n]/.test(e.data)) throw new TypeError(`${here}.data: a string may not hold a line break (give an object)`);
    if (e.delayMs !== undefined && !(typeof e.delayMs === 'number' && Number.isFinite(e.delayMs) && e.delayMs >= 0))
      throw new TypeError(`${here}.delayMs must be a number >= 0`);
  });
  if (cut === undefined) return;
  if (!isPlainObject(cut) || Object.keys(cut).some((k) => k !== 'afterEvents')) throw new TypeError(`${at}.cut must be { afterEvents }`);
  const after = cut.afterEvents;
  if (!(Number.isInteger(after) && (after as number) >= 0 && (after as number) <= events.length))
    throw new TypeError(`${at}.cut.afterEvents must be an integer from 0 to ${events.length} (the events given)`);
}

/**
 * Checks a streamed answer against the operation: it must stream, answer 200, and (unless unchecked) each event
 * must fit openapi.json's event schema (`ExecuteStreamEvent` by name, a chat stream's `ChatCompletionChunk`).
 * A problem throws 422 `invalid_params` naming the event (`answer.events[2].data.delta`).
 */
export function checkStubEvents(op: OperationInfo, status: number, events: readonly StubEvent[], at: string, unchecked: boolean): void {
  if (op.streaming === 'none') throw invalidParams(`${at}.events: ${op.id} never streams; events answer only an operation that streams.`);
  if (status !== 200) throw invalidParams(`${at}.status: a streamed answer is a 200 (its errors are error events), not ${status}.`);
  if (unchecked) return;
  const kind = op.streaming === 'chat' ? 'chat' : 'execute';
  events.forEach((e, i) => {
    const here = `${at}.events[${i}]`;
    if (kind === 'chat' && e.event !== undefined) throw invalidParams(`${here}.event: a chat completion stream's chunks have no event name.`);
    const problem = kind === 'chat' ? eventCheck(kind, `${here}.data`)(e.data) : eventCheck(kind, here)({ event: e.event, data: e.data });
    if (problem) throw invalidParams(`${here} does not fit openapi.json's ${EVENT_SCHEMA[kind]} of ${op.id}: ${problem.message}`, problem.missing);
  });
}

/** One macrotask turn: an event of no delay still leaves apart from the one before (as the server's own streams). */
const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Sends the events in order on the server's clock, then ends the stream (a chat stream with `data: [DONE]`). It
 * stops as soon as the stream is closed (the client went away, a `cut`, a reset).
 */
export async function playEvents(stream: SseStream, events: readonly StubEvent[], clock: ServerClock, chat: boolean): Promise<void> {
  for (const e of events) {
    await (e.delayMs ? clock.sleep(e.delayMs) : turn());
    if (!stream.isOpen) return;
    await stream.ready();
    stream.send(e.event ?? null, typeof e.data === 'string' ? e.data : JSON.stringify(e.data));
  }
  if (chat) stream.send(null, '[DONE]');
  stream.close();
}
