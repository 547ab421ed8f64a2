import type { Connection } from '../../generated/types.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import type { ConnectionRecord } from '../state/state.js';

/** The API's view of a connection. */
export function connectionView(c: ConnectionRecord): Connection {
  return { provider: c.provider, method: c.method, url: c.url, status: c.status };
}

/**
 * `POST /v1/connections/{provider}/link`. `api_key` (with `api_key`) and `wallet` link at once; `oauth` (the
 * default) answers `pending` with the URL where the account holder consents; the test completes it with
 * `server.linkConnection(account, provider)`. Linking a linked connection answers it unchanged.
 */
export const linkConnection: OperationHandler = (ctx) => {
  const provider = ctx.params.provider!;
  // `ConnectionLinkRequest` of openapi.json checked the method, and `api_key` with `method: api_key`.
  const method = (ctx.body.method ?? 'oauth') as ConnectionRecord['method'];
  const existing = ctx.account.connections.get(provider);
  if (existing?.status === 'linked') return ctx.reply(200, { kind: 'record', value: connectionView(existing) });
  const record = ctx.parts.store.linkConnection(ctx.account.name, provider, method, method === 'oauth' ? 'pending' : 'linked');
  return ctx.reply(200, { kind: 'record', value: connectionView(record) });
};
