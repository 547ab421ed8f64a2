import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/** Step: the wire of the answer. Execute routes that may stream decide in the handler: a stream ignores it. */
export const negotiation: ServerStep<ServerExchange> = (ctx, next) => {
  const { op } = ctx;
  // The plane is tested last, on its own line, so that the disable comment below reaches its two mutants only
  // (Stryker's disable comments name a line and a mutator, and the condition's first line carries all of its own).
  if (
    op.wire &&
    op.streaming === 'none' &&
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent (test/mutation/equivalent-mutants.md): every operation of the mcp plane has wire: false (src/generated/operations.ts), op.wire already leaves them out
    op.plane !== 'mcp'
  ) {
    ctx.ctx.negotiate();
  }
  return next();
};
