import { toMockError } from '../../contract/errors.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';

/**
 * Step: an error thrown by any step after this one (a 401, a 413, an error fault, a 422, a handler's
 * `OzMockError`, a bug) is answered as the error envelope on the request's wire (`RequestContext.error`).
 */
export const render: ServerStep<ServerExchange> = async (ctx, next) => {
  try {
    return await next();
  } catch (err) {
    return ctx.ctx.error(toMockError(err));
  }
};
