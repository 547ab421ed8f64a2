import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { createTestServer } from '../../support/ozServer.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { OPERATION_IDS_IN_ORDER, plainRequest, type MakeResource, type PlainRequest } from '../../support/plainRequests.js';
import { call } from '../support/serverCall.js';

const ALL_OPERATIONS = Object.values(openapi.paths as Record<string, Record<string, { operationId?: string }>>)
  .flatMap((item) => Object.values(item))
  .map((op) => op.operationId)
  .filter((id): id is string => typeof id === 'string')
  .sort();

describe('every operation of openapi.json', () => {
  // The tour is derived from openapi.json (test/support/plainRequests.ts): a new operation is in it unwritten.
  it(`is served with a success answer (${ALL_OPERATIONS.length} operations, each its plain request)`, async () => {
    const server = createTestServer();
    const send = async (request: PlainRequest) => {
      const res = await call(server, request.method, request.path, { body: request.body, key: request.open ? null : undefined });
      expect(res.status, `${request.method} ${request.path}: ${res.status === request.expect ? '' : await res.clone().text()}`).toBe(request.expect);
      return res;
    };
    const make: MakeResource = async (request) => (await (await send(request)).json()) as Record<string, unknown>;
    for (const id of OPERATION_IDS_IN_ORDER) await (await send(await plainRequest(id, make))).text();
    await server.idle();
    const served = [...new Set(server.journal.entries.map((e) => e.operationId).filter((id): id is string => id !== null))].sort();
    expect(served).toEqual(ALL_OPERATIONS);
    expect(ALL_OPERATIONS).toEqual(Object.keys(OPERATIONS).sort());
    await server.close();
  });
});

describe("the server's operation table", () => {
  it('is the generated table, plus only whether a body is taken and whether a 2xx answer is replayed', async () => {
    const { SERVER_OPERATIONS: serverTable } = await import('../../../src/testing/contract/operations.js');
    const { OPERATIONS: generated } = await import('../../../src/generated/operations.js');
    expect(serverTable.map((op) => op.id).sort()).toEqual(Object.keys(generated).sort());
    for (const { body, replay, ...descriptor } of serverTable) {
      expect(descriptor).toEqual(generated[descriptor.id as keyof typeof generated]);
      const raw = (openapi.paths as Record<string, Record<string, { requestBody?: unknown; 'x-oz-replay'?: boolean }>>)[descriptor.path]![
        descriptor.method.toLowerCase()
      ]!;
      expect(body, descriptor.id).toBe(raw.requestBody !== undefined);
      expect(replay, descriptor.id).toBe(raw['x-oz-replay'] === true);
    }
  });

  it('answers a preflight on every path of the table, a slash-holding parameter included, and 404 elsewhere', async () => {
    const server = createTestServer();
    const preflight = (path: string) => call(server, 'OPTIONS', path, { headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect((await preflight('/v1/proxy/crm/contacts/42/notes')).status).toBe(204);
    expect((await preflight('/v1/tools/echo/execute')).status).toBe(204);
    expect((await preflight('/v1/tools/echo/execute/more')).status).toBe(404);
    await server.close();
  });

  it('reads the API version from openapi.json', async () => {
    const { API_VERSION } = await import('../../../src/testing/contract/operations.js');
    expect(API_VERSION).toBe(openapi.info.version);
  });
});

describe('serverOperationNamed', () => {
  it("answers the server's descriptor of an operation named by a caller's string", async () => {
    const { SERVER_OPERATIONS, serverOperationNamed } = await import('../../../src/testing/contract/operations.js');
    for (const op of SERVER_OPERATIONS) expect(serverOperationNamed(op.id)).toBe(op);
  });

  it('answers undefined for a name no operation has, an object property name included', async () => {
    const { serverOperationNamed } = await import('../../../src/testing/contract/operations.js');
    for (const name of ['noSuchOperation', 'ExecuteTool', '', 'toString', '__proto__', 'constructor']) expect(serverOperationNamed(name), name).toBeUndefined();
  });
});
