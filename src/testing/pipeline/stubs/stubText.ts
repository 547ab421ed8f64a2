import { invalidParams } from '../../contract/errors.js';
import type { OperationInfo } from '../../contract/operations.js';
import { mediaType } from '../../wire/wire.js';
import type { Reply } from '../../wire/requestOutcome.js';
import type { RequestContext } from '../requestContext.js';
import { responseShape } from './stubAnswerCheck.js';

/** The media types a `text` answer may have: the service's markdown and text wires (as `oz-mock record` saw them). */
const TEXT_MEDIA: ReadonlySet<string> = new Set(['text/markdown', 'text/plain']);

/**
 * Checks the shape of a `text` answer (a `TypeError` names the field): a string, with a `contentType` of the
 * markdown or text wire, and no `body`, `events` or `reply` beside it.
 */
export function checkTextShape(answer: Readonly<Record<string, unknown>>, at: string): void {
  if (typeof answer.text !== 'string') throw new TypeError(`${at}.text must be a string (sent as it is)`);
  if (typeof answer.contentType !== 'string' || !TEXT_MEDIA.has(mediaType(answer.contentType)))
    throw new TypeError(`${at}.contentType must be text/markdown or text/plain (with its charset), given with ${at}.text`);
  if (answer.body !== undefined || answer.events !== undefined || answer.reply !== undefined)
    throw new TypeError(`Give ${at}.text alone: no body, events or reply beside it`);
}

/** A `text` answer's status must be one openapi.json lists for the operation (unless unchecked): 422 otherwise. */
export function checkTextStatus(op: OperationInfo, status: number, at: string, unchecked: boolean): void {
  if (unchecked || responseShape(op, status, `${at}.text`)) return;
  throw invalidParams(`${at}.status: ${op.id} never answers ${status} in openapi.json; add "unchecked": true to send it anyway.`);
}

/** The bytes of a `text` answer as they came, with their content type and the server's own headers. */
export function textReply(
  ctx: RequestContext,
  answer: { readonly status: number; readonly text: string; readonly contentType: string; readonly headers?: Readonly<Record<string, string>> },
): Reply {
  return ctx.buffered(answer.status, { ...ctx.headers(answer.contentType), ...answer.headers }, answer.text);
}
