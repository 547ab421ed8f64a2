import type { ServerClock } from '../time/clock.js';
import { replyResponse, type Reply } from './requestOutcome.js';
import { paceToken } from './streamPace.js';

/** How many pieces a dribbled answer comes in (a buffered body is cut in this many; a stream's first chunks wait). */
export const DRIBBLE_PIECES = 10;

function slices(bytes: Uint8Array, pieces: number): Uint8Array[] {
  const size = Math.max(1, Math.ceil(bytes.length / pieces));
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/**
 * The reply with its body sent in pieces spread over `ms` of the server clock (a `dribble` fault): a buffered
 * body cut in {@link DRIBBLE_PIECES} pieces with `ms / DRIBBLE_PIECES` before each, an event stream's chunks each
 * held that long (the first {@link DRIBBLE_PIECES} of them). Status and headers go out at once. On a frozen
 * clock the pieces go out a macrotask apart, as a stream's tokens do (`streamPace.ts`).
 */
export function dribbleReply(reply: Reply, ms: number, clock: ServerClock): Reply {
  const response = replyResponse(reply);
  if (response.body === null) return reply;
  const reader = response.body.getReader();
  const buffered = reply.kind !== 'stream';
  const step = ms / DRIBBLE_PIECES;
  let waits = 0;
  let pending: Uint8Array[] = [];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending.length === 0) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        pending = buffered ? slices(value, DRIBBLE_PIECES) : [value];
      }
      if (waits < DRIBBLE_PIECES) {
        waits++;
        await paceToken(clock, step);
      }
      controller.enqueue(pending.shift()!);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { kind: 'response', response: new Response(body, { status: response.status, headers: response.headers }) };
}
