import type { AnswerParts } from './connection.js';

/**
 * What the server hands a mount for one request. Each mount handles every kind: a status is read from a reply,
 * never from a stand-in `Response`.
 */
export type Answer =
  /** A Fetch-API answer (event streams; buffered answers in process and through msw). */
  | { readonly kind: 'response'; readonly response: Response }
  /** A buffered answer the HTTP mount writes to the socket itself: no `Response` is made for it. */
  | { readonly kind: 'written'; readonly parts: AnswerParts }
  /** No answer: the connection was dropped (a `drop` or `lose` fault, a cut before the stream began). */
  | { readonly kind: 'dropped' };

/** What a handler answers: a reply (dropping a connection is the dispatcher's, not a handler's). */
export type Reply = Exclude<Answer, { readonly kind: 'dropped' }>;

/** The answer of the dropped connection. */
export const DROPPED: Answer = Object.freeze({ kind: 'dropped' });

/** A `Response` as a reply. */
export function responseReply(response: Response): Reply {
  return { kind: 'response', response };
}

/** The status a reply answers with. */
export function replyStatus(reply: Reply): number {
  return reply.kind === 'response' ? reply.response.status : reply.parts.status;
}

/** The reply as a Fetch-API `Response` (built from the parts of a written one: for observers, or a mount that needs one). */
export function replyResponse(reply: Reply): Response {
  if (reply.kind === 'response') return reply.response;
  const { status, headers, body } = reply.parts;
  return new Response(body, { status, headers });
}
