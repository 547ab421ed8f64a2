import { dribbleReply } from '../../wire/dribble.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/** Step: a `dribble` fault sends the answer, whatever answered (an error too), in pieces over its time. */
export const dribble: ServerStep<ServerExchange> = async (ctx, next) => {
  const answer = await next();
  const { fault } = ctx;
  if (fault?.type !== 'dribble' || answer.kind === 'dropped') return answer;
  return dribbleReply(answer, fault.ms, ctx.world.parts.clock);
};
