import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson } from '../support/serverCall.js';

const ALL_OPERATIONS = Object.values(openapi.paths as Record<string, Record<string, { operationId?: string }>>)
  .flatMap((item) => Object.values(item))
  .map((op) => op.operationId)
  .filter((id): id is string => typeof id === 'string')
  .sort();

describe('every operation of openapi.json', () => {
  it('is served with a success answer (42 operations)', async () => {
    const server = createTestServer();
    server.linkConnection('demo', 'crm');
    const ok = async (method: string, path: string, body?: unknown, key?: string) => {
      const res = await call(server, method, path, { body, key });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res;
    };
    await ok('GET', '/health', undefined);
    await ok('GET', '/v1/openapi.json');
    await ok('GET', '/v1/models');
    await ok('GET', '/v1/models/oz-chat');
    await ok('POST', '/v1/chat/completions', { model: 'oz-chat', messages: [{ role: 'user', content: 'x' }] });
    await ok('POST', '/v1/embeddings', { model: 'oz-embed', input: 'x' });
    await ok('GET', '/v1/tools');
    await ok('GET', '/v1/tools/echo');
    const run = await callJson<{ execution_id: string }>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' } });
    await ok('GET', '/v1/agents');
    await ok('GET', '/v1/agents/writer');
    const agentRun = await callJson<{ execution_id: string }>(server, 'POST', '/v1/execute', { body: { agent: 'writer', user_request: 'x' } });
    await ok('POST', '/v1/workflows/execute', { workflow: { name: 'w', tasks: [{ id: 't', type: 'task', agent: 'writer' }] }, input: 'x' });
    await (await ok('POST', '/v1/workflows/execute-stream', { name: 'w', tasks: [{ id: 't', type: 'task', agent: 'writer' }] })).text();
    await ok('GET', '/v1/workflows');
    await ok('POST', '/v1/workflows', { name: 'mine', tasks: [{ id: 't', type: 'task', agent: 'writer' }] });
    await ok('GET', '/v1/workflows/mine');
    await ok('POST', '/v1/workflows/mine/execute', { input: 'x' });
    await (await ok('POST', '/v1/workflows/mine/execute-stream', { input: 'x' })).text();
    await ok('DELETE', '/v1/workflows/mine');
    const schedule = await callJson<{ id: string }>(server, 'POST', '/v1/schedules', {
      body: { name: 's', cron: '0 0 * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'x' } },
    });
    await ok('GET', '/v1/schedules');
    await ok('GET', `/v1/schedules/${schedule.body.id}`);
    await ok('POST', `/v1/schedules/${schedule.body.id}/run`);
    await ok('DELETE', `/v1/schedules/${schedule.body.id}`);
    await ok('GET', '/v1/executions');
    await ok('GET', `/v1/executions/${run.body.execution_id}`);
    await ok('POST', `/v1/executions/${run.body.execution_id}/cancel`);
    await ok('POST', `/v1/executions/${agentRun.body.execution_id}/followup`, { user_request: 'more' });
    await ok('GET', '/v1/discovery?q=echo');
    await ok('GET', '/v1/traces');
    await ok('GET', `/v1/traces/${run.body.execution_id}`);
    await ok('POST', '/v1/connections/maps/link', { method: 'wallet' });
    const item = await callJson<{ id: string }>(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'x' } });
    await ok('GET', '/v1/companies/acme/items');
    await ok('GET', `/v1/companies/acme/items/${item.body.id}`);
    await ok('POST', '/v1/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
      await ok(method, '/v1/proxy/crm/a/b', method === 'GET' || method === 'DELETE' ? undefined : { x: 1 });
    await server.idle();
    const served = [...new Set(server.journal.entries.map((e) => e.operationId).filter((id): id is string => id !== null))].sort();
    expect(ALL_OPERATIONS).toHaveLength(42);
    expect(served).toEqual(ALL_OPERATIONS);
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
