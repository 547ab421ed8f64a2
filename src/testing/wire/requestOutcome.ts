import type { AnswerParts } from './connection.js';
import type { SseStream } from './sseStream.js';

/**
 * What came of one request, handed to its mount: a reply, or the dropped connection. Each mount handles every
 * kind: a status is read from a reply, never from a stand-in `Response`. (The client's word for what the service
 * sends back is `Answer`, in src/core.)
 */
export type RequestOutcome =
  /** A Fetch-API answer (buffered answers in process and through msw, the control plane's, the dashboard's). */
  | { readonly kind: 'response'; readonly response: Response }
  /**
   * An event stream: its head, and the stream the mount attaches its sink to (over HTTP the socket, in process
   * and through msw a web stream: see `SseStream.attach`).
   */
  | { readonly kind: 'stream'; readonly status: number; readonly headers: Record<string, string>; readonly stream: SseStream }
  /** A buffered answer the HTTP mount writes to the socket itself: no `Response` is made for it. */
  | { readonly kind: 'written'; readonly parts: AnswerParts }
  /** No answer: the connection was dropped (a `drop` or `lose` fault, a cut before the stream began). */
  | { readonly kind: 'dropped' };

/** What a handler answers: a reply (dropping a connection is a fault step's, not a handler's). */
export type Reply = Exclude<RequestOutcome, { readonly kind: 'dropped' }>;

/** The answer of the dropped connection. */
export const DROPPED: RequestOutcome = Object.freeze({ kind: 'dropped' });

/** A `Response` as a reply. */
export function responseReply(response: Response): Reply {
  return { kind: 'response', response };
}

/** The status a reply answers with. */
export function replyStatus(reply: Reply): number {
  return reply.kind === 'response' ? reply.response.status : reply.kind === 'stream' ? reply.status : reply.parts.status;
}

/**
 * The reply as a Fetch-API `Response` (built from the parts of a written one; a stream's body becomes a web
 * stream, its one sink): for a mount that needs one.
 */
export function replyResponse(reply: Reply): Response {
  if (reply.kind === 'response') return reply.response;
  if (reply.kind === 'stream') return new Response(reply.stream.body, { status: reply.status, headers: reply.headers });
  const { status, headers, body } = reply.parts;
  return new Response(body, { status, headers });
}

/**
 * What makes an observer's own copy of a reply (`server.onResponse`): a clone of a buffered answer, or a `Response`
 * over a tap of a stream (its bytes as the mount's sink gets them). Call it before the mount takes the reply.
 */
export function replyCopier(reply: Reply): () => Response {
  if (reply.kind === 'stream') return () => new Response(reply.stream.tap(), { status: reply.status, headers: reply.headers });
  const response = replyResponse(reply);
  return () => response.clone();
}
