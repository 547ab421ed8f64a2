import type { Reply } from '../../wire/requestOutcome.js';
import { replyStatus } from '../../wire/requestOutcome.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/** The error code an answer carries (`X-Error-Code`), or `null`. */
function answerCode(reply: Reply): string | null {
  if (reply.kind === 'response') return reply.response.headers.get('x-error-code');
  return (reply.kind === 'stream' ? reply.headers : reply.parts.headers)['x-error-code'] ?? null;
}

/**
 * Step: an operation's request is counted in the coverage where its journal entry is final (the journal step, just
 * after this one, finished it): its answer (status, code, streamed, what gave it), or none (dropped by a fault). A
 * fault (or a chaos rule's) that answered or took the answer away gave it; a `delay` or a `dribble` leaves it to
 * what answered. A request that matched no operation is not counted.
 */
export const coverage: ServerStep<ServerExchange> = async (ctx, next) => {
  const answer = await next();
  const { entry, fault } = ctx;
  if (entry === null || !ctx.routed || ctx.route !== 'operation') return answer;
  const request = ctx.ctx;
  const counts = ctx.world.parts.coverage;
  if (answer.kind === 'dropped') {
    counts.record(ctx.op.id, null);
    return answer;
  }
  if (fault !== null && fault.type !== 'delay' && fault.type !== 'dribble') request.answeredBy = entry.chaos === null ? 'fault' : 'chaos';
  entry.answeredBy = request.answeredBy;
  counts.record(ctx.op.id, {
    status: replyStatus(answer),
    code: answerCode(answer),
    streamed: request.streamed || answer.kind === 'stream',
    by: request.answeredBy,
  });
  return answer;
};
