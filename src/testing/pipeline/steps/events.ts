import { replyCopier } from '../../wire/requestOutcome.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/**
 * Step: the listeners (`answered`: the live feed, `--log`; `response`: `server.onResponse`) see the finished journal
 * entry and a copy of the answer, as it leaves (a dribbled one in its pieces). A dropped request is not shown.
 */
export const events: ServerStep<ServerExchange> = async (ctx, next) => {
  const answer = await next();
  const { events: listeners } = ctx.world.parts;
  const entry = ctx.entry;
  if (answer.kind === 'dropped' || entry === null) return answer;
  if (listeners.has('answered')) listeners.emit('answered', () => entry);
  if (!listeners.has('response')) return answer;
  const copy = replyCopier(answer);
  const { request, conn, route } = ctx;
  const operationId = entry.operationId;
  listeners.emit('response', () => ({ operationId, route, surface: conn.surface, request, response: copy(), journal: entry }));
  return answer;
};
