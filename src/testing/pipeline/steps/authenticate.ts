import { hashKey, keyKindOf } from '../../state/apiKeys.js';
import type { KeyRecord, ServerData } from '../../state/state.js';
import type { Principal, RequestContext } from '../requestContext.js';
import { unauthorized } from '../../contract/errors.js';
import type { OperationInfo } from '../../contract/operations.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { addressInFence } from '../../support/addressFence.js';

const LEGACY_PLANE = { models: 'models', proxy: 'proxy' } as const;

/** The key of an `Authorization: Bearer <key>` header, or null for a header of another shape. */
export function bearerKey(authorization: string): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null;
}

/** The stored key a key value names (found by its hash), if any. */
export function storedKey(data: ServerData, value: string): KeyRecord | undefined {
  const id = data.keyByHash.get(hashKey(value));
  return id === undefined ? undefined : data.keys.get(id);
}

/**
 * Authenticates a request as the spec's Authentication section says: the credential the operation accepts,
 * the key's plane, expiry (each request), revocation (after the key cache's time) and the address fence.
 */
export function authenticate(ctx: RequestContext, op: OperationInfo, data: ServerData, now: number, keyCacheMs: number): Principal {
  const authorization = ctx.header('authorization');
  const apiKeyHeader = ctx.header('x-api-key');
  if (op.plane === 'models' && apiKeyHeader !== null) {
    throw unauthorized('X-API-Key is not accepted on the models plane: send Authorization: Bearer <key>.');
  }
  let value: string;
  if (authorization !== null) {
    const key = bearerKey(authorization);
    if (key === null) throw unauthorized('Authorization must be Bearer <key>.');
    value = key;
  } else if (apiKeyHeader !== null && op.auth === 'bearer-or-api-key') {
    value = apiKeyHeader.trim();
  } else if (apiKeyHeader !== null) {
    throw unauthorized('This route takes the key as Authorization: Bearer <key>, not X-API-Key.');
  } else {
    throw unauthorized('A key is required: send Authorization: Bearer <key>.');
  }

  const kind = keyKindOf(value);
  if (!kind && value.startsWith('ozadm_')) throw unauthorized('The admin token opens only the control plane (/_oz/): send an API key.');
  if (!kind) throw unauthorized('Invalid key.');
  if (kind !== 'platform' && op.plane !== LEGACY_PLANE[kind]) {
    throw unauthorized(
      `A legacy ${kind === 'models' ? 'sk-mdl-' : 'sk-prx-'} key opens only the ${kind === 'models' ? 'models plane' : 'connector proxy'}; use an ozk_ key.`,
    );
  }
  const key = storedKey(data, value);
  if (!key) throw unauthorized('Invalid key.');
  if (key.expires_at !== null && now >= key.expires_at) throw unauthorized('This key has expired.');
  if (key.revoked_at !== null && now >= key.revoked_at + keyCacheMs) throw unauthorized('This key was revoked.');
  if (key.fence_addresses && !addressInFence(ctx.conn.remoteAddress, key.fence_addresses)) {
    throw unauthorized('This key does not accept requests from this address.');
  }
  const account = data.accounts.get(key.account);
  if (!account) throw unauthorized('Invalid key.');
  return { account, key };
}

/** Step: an operation that takes a key knows its caller (`ctx.principal`) from here on. */
export const authentication: ServerStep<ServerExchange> = (ctx, next) => {
  const { op } = ctx;
  if (op.auth === 'none') return next();
  const { parts } = ctx.world;
  ctx.ctx.principal = authenticate(ctx.ctx, op, parts.store.data, parts.clock.now(), parts.options.keyCacheMs);
  return next();
};
