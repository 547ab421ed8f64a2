import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/generated/routes.js';
import { HANDLERS } from '../../../src/testing/handlers/index.js';
import type { OperationHandler } from '../../../src/testing/pipeline/operationHandler.js';
import type { OperationHandlers } from '../../../src/testing/pipeline/operationHandler.js';
import { createTestServer } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';

describe('routing by the generated route table', () => {
  it('has a handler for every route and none for anything else (OperationHandlers, keyed by OperationId)', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(ROUTES.map((r) => r.operationId).sort());
    const handler: OperationHandler = () => {
      throw new Error('never called');
    };
    // @ts-expect-error: every operation needs its handler
    const missing: OperationHandlers = { getHealth: handler };
    // @ts-expect-error: a handler must name an operation
    const unknown: OperationHandlers = { ...HANDLERS, getNothing: handler };
    expect([missing, unknown]).toHaveLength(2);
  });

  it('hands a route its parameters decoded, and answers 404 for HEAD, a trailing slash and an unknown path', async () => {
    const server = createTestServer();
    try {
      const tool = await call(server, 'GET', '/v1/tools/%65cho');
      expect(tool.status).toBe(200);
      expect(server.journal.last('getTool')).toMatchObject({ path: '/v1/tools/%65cho', status: 200 });
      for (const [method, path] of [
        ['HEAD', '/v1/tools'],
        ['GET', '/v1/tools/'],
        ['GET', '/v1/nothing'],
        ['DELETE', '/v1/tools'],
      ] as const) {
        const res = await call(server, method, path);
        expect([res.status, res.headers.get('x-error-code')], `${method} ${path}`).toEqual([404, 'not_found']);
      }
      const probe = await call(server, 'GET', '/v1/mcp');
      expect([probe.status, probe.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
    } finally {
      await server.close();
    }
  });
});
