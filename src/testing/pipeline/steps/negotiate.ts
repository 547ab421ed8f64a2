import type { RequestStep } from '../requestStep.js';

/** Step: the wire of the answer. Execute routes that may stream decide in the handler: a stream ignores it. */
export const negotiation: RequestStep = (ctx, op) => {
  if (op.plane !== 'mcp' && op.wire && op.streaming === 'none') ctx.negotiate();
};
