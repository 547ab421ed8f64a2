import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/**
 * Step: the stubs answer in the handler's place (the newest that matches; a scripted reply is rendered by the
 * handler): after authentication, validation and the wire's choice, so a stubbed answer is checked and negotiated
 * as the handler's would be. None armed: straight to the handler.
 */
export const stub: ServerStep<ServerExchange> = (ctx, next) => {
  const { stubs } = ctx.world.parts;
  return stubs.size === 0 ? next() : stubs.answer(ctx.ctx, ctx.op, next);
};
