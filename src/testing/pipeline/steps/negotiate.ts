import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/** Step: the wire of the answer. Execute routes that may stream decide in the handler: a stream ignores it. */
export const negotiation: ServerStep<ServerExchange> = (ctx, next) => {
  const { op } = ctx;
  if (op.plane !== 'mcp' && op.wire && op.streaming === 'none') ctx.ctx.negotiate();
  return next();
};
