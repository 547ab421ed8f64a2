/** One request in the server's chain (src/testing/pipeline/exchange.ts): what a step may read, and when. */
import { describe, expect, it } from 'vitest';
import { ServerExchange, type ChainWorld } from '../../../src/testing/pipeline/exchange.js';
import { RequestContext } from '../../../src/testing/pipeline/requestContext.js';
import { SERVER_OPERATIONS_BY_ID } from '../../../src/testing/contract/operations.js';
import { Connection, fetchRequestReader } from '../../../src/testing/wire/connection.js';

function exchange(): ServerExchange {
  const request = new Request('http://oz.test/v1/tools');
  const conn = new Connection('fetch', 'api', '127.0.0.1', fetchRequestReader(request));
  return new ServerExchange(null, { parts: {} } as ChainWorld, request, conn);
}

describe('ServerExchange', () => {
  it('refuses a read of the request context or the operation before the route step made them', () => {
    const ctx = exchange();
    expect(ctx.routed).toBe(false);
    expect(() => ctx.ctx).toThrow(/before the route step/);
    expect(() => ctx.op).toThrow(/has none/);
  });

  it('holds what the route step found: the context, and the operation of an operation', () => {
    const routed = exchange();
    const op = SERVER_OPERATIONS_BY_ID.listTools;
    const context = new RequestContext(routed.world.parts, op, routed.request, routed.conn, {}, 'req_1');
    routed.routeTo('operation', context);
    expect([routed.routed, routed.route, routed.ctx, routed.op]).toEqual([true, 'operation', context, op]);
    const unrouted = exchange();
    unrouted.routeTo('not_found', new RequestContext(unrouted.world.parts, null, unrouted.request, unrouted.conn, {}, 'req_2'));
    expect([unrouted.routed, unrouted.route]).toEqual([true, 'not_found']);
    expect(() => unrouted.op).toThrow(/has none/);
  });
});
