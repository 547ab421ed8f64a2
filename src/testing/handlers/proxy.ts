import type { OperationHandler } from '../pipeline/operationHandler.js';
import { connectionRequired } from '../contract/errors.js';

/** What one connector-proxy call costs (micro-dollars), drawn from the account's wallet. */
export const PROXY_CALL_MICROS = 500;

/**
 * `/v1/proxy/{provider}/{path}` (any method): with a linked connection, the "upstream" answers what it got
 * (`provider`, `method`, `path`, `query`, `body`) as JSON; the call is metered. Without one, 424.
 */
export const proxyRequest: OperationHandler = (ctx) => {
  const provider = ctx.params.provider!;
  if (ctx.account.connections.get(provider)?.status !== 'linked') throw connectionRequired(provider);
  ctx.parts.store.charge(ctx.account, PROXY_CALL_MICROS);
  const url = ctx.request.url;
  const q = url.indexOf('?');
  return ctx.json(200, {
    provider,
    method: ctx.request.method,
    path: `/${ctx.params.path}`,
    query: Object.fromEntries(new URLSearchParams(q < 0 ? '' : url.slice(q + 1))),
    body: ctx.rawBody ? ctx.body : null,
    metered_usd: PROXY_CALL_MICROS / 1e6,
  });
};
