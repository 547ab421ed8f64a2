import type { ServerExchange } from '../pipeline/exchange.js';
import type { ServerStep } from '../pipeline/serverStep.js';
import type { DashboardWorld } from '../mounts/dashboardStep.js';
import type { SessionRegistry } from './sessionRegistry.js';
import { requestKey } from './sessionKey.js';

/** The server's sessions, as the chain holds them (`null` on a session's own mount: a session has none). */
export interface SessionScope {
  readonly sessions: SessionRegistry | null;
}

/**
 * Step: a request whose key belongs to a live session goes to that session's world (its state, journal, faults,
 * stubs, dashboard): every step after this one works on `ctx.world`. Any other stays with the default world.
 */
export const sessions: ServerStep<ServerExchange<SessionScope, DashboardWorld>> = (ctx, next) => {
  const registry = ctx.scope.sessions;
  if (registry === null || registry.size === 0) return next();
  const value = requestKey(ctx.conn);
  const world = value === null ? null : registry.worldOf(value);
  if (world !== null) ctx.world = world;
  return next();
};
