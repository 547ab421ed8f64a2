import type { ChainWorld, ServerExchange } from '../pipeline/exchange.js';
import type { ServerStep } from '../pipeline/serverStep.js';
import { responseReply } from '../wire/requestOutcome.js';
import type { Dashboard } from './dashboard.js';

/** A world with its dashboard. */
export interface DashboardWorld extends ChainWorld {
  readonly dashboard: Dashboard;
}

/** Step: the world's dashboard pages (`{dashboard}`: sign-in, keys) answer their own requests, not journaled. */
export const dashboard: ServerStep<ServerExchange<unknown, DashboardWorld>> = (ctx, next) => {
  const { dashboard: pages } = ctx.world;
  return pages.owns(ctx.request, ctx.conn) ? pages.handle(ctx.request, ctx.conn).then(responseReply) : next();
};
