import { DROPPED } from '../../wire/requestOutcome.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/**
 * Step: a `lose` fault, or a `cut` one on an answer that did not stream, drops the answer once the steps after this
 * one journaled it and showed it to the listeners: the server did the work, the caller never hears of it.
 */
export const loseAnswer: ServerStep<ServerExchange> = async (ctx, next) => {
  const answer = await next();
  const { fault } = ctx;
  if (fault === null || answer.kind === 'dropped') return answer;
  if (fault.type !== 'lose' && !(fault.type === 'cut' && !ctx.ctx.streamed)) return answer;
  if (answer.kind === 'response') void answer.response.body?.cancel().catch(() => undefined);
  else if (answer.kind === 'stream') answer.stream.cancel();
  ctx.conn.drop();
  return DROPPED;
};
