import { OzMockError } from '../../contract/errors.js';
import type { OperationInfo } from '../../contract/operations.js';
import type { Principal } from '../requestContext.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/** The company service is not deployed on the free tier. */
export function checkTier(principal: Principal, op: OperationInfo): void {
  if (op.plane === 'companies' && principal.account.tier === 'free') {
    throw new OzMockError(503, 'not_enabled', 'The company service is not deployed on the free tier.', {
      hint: 'Upgrade the account to use companies.',
    });
  }
}

/** Step: the caller's tier opens the operation's plane. */
export const tier: ServerStep<ServerExchange> = (ctx, next) => {
  const { principal } = ctx.ctx;
  if (principal) checkTier(principal, ctx.op);
  return next();
};
