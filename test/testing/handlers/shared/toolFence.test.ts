import { afterEach, describe, expect, it } from 'vitest';
import type { AgentList, DiscoveryList, ToolList } from '../../../../src/generated/types.js';
import type { OzServer } from '../../../../src/testing/index.js';
import { createTestServer } from '../../../support/ozServer.js';
import { callJson, type ErrorBody } from '../../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

describe('tool fences hold on the REST routes as on MCP (issue 22, point 7)', () => {
  it('a key fenced to echo and writer sees only those in the lists and in discovery', async () => {
    server = createTestServer();
    const { key } = server.addKey({ account: 'demo', tools: ['echo', 'writer'] });
    expect((await callJson<ToolList>(server, 'GET', '/v1/tools', { key })).body.data.map((t) => t.name)).toEqual(['echo']);
    expect((await callJson<AgentList>(server, 'GET', '/v1/agents', { key })).body.data.map((a) => a.name)).toEqual(['writer']);
    const found = await callJson<DiscoveryList>(server, 'GET', '/v1/discovery?limit=100', { key });
    expect(
      found.body.data
        .filter((r) => r.kind !== 'workflow')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['echo', 'writer']);
    // the unfenced demo key still sees every one
    expect((await callJson<ToolList>(server, 'GET', '/v1/tools')).body.data.map((t) => t.name)).toEqual(['crm_lookup', 'echo', 'slow', 'sum']);
  });

  it('getting or executing a tool or agent outside the fence answers 404 as if it did not exist', async () => {
    server = createTestServer();
    const { key } = server.addKey({ account: 'demo', tools: ['echo', 'writer'] });
    const cases = [
      ['GET', '/v1/tools/sum', undefined, 'tool_not_found'],
      ['POST', '/v1/tools/sum/execute', { a: 1, b: 2 }, 'tool_not_found'],
      ['GET', '/v1/agents/approver', undefined, 'agent_not_found'],
      ['POST', '/v1/execute', { agent: 'approver', user_request: 'x', approved: true }, 'agent_not_found'],
    ] as const;
    for (const [method, path, body, code] of cases) {
      const res = await callJson<ErrorBody>(server, method, path, { key, body });
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, code]);
      const absent = await callJson<ErrorBody>(server, method, path.replace(/sum|approver/, 'no_such_name'), {
        key,
        body: body && { ...body, agent: 'no_such_name' },
      });
      expect(res.body.error.message.replace(/sum|approver/, 'no_such_name')).toBe(absent.body.error.message);
    }
    expect((await callJson(server, 'POST', '/v1/tools/echo/execute', { key, body: { text: 'in' } })).status).toBe(200);
    expect((await callJson(server, 'POST', '/v1/execute', { key, body: { agent: 'writer', user_request: 'in' } })).status).toBe(200);
  });

  it('a workflow task or a follow-up on an agent outside the fence is refused', async () => {
    server = createTestServer();
    const { key } = server.addKey({ account: 'demo', tools: ['writer'] });
    const inline = await callJson<ErrorBody>(server, 'POST', '/v1/workflows/execute', {
      key,
      body: { workflow: { name: 'w', tasks: [{ id: 'a', type: 'task', agent: 'approver' }] }, input: 'x' },
    });
    expect([inline.status, inline.body.error.code, inline.body.error.message]).toEqual([422, 'invalid_params', 'tasks[0].agent names no agent: approver.']);
    const run = await callJson<{ execution_id: string }>(server, 'POST', '/v1/execute', { body: { agent: 'approver', user_request: 'x', approved: true } });
    const followup = await callJson<ErrorBody>(server, 'POST', `/v1/executions/${run.body.execution_id}/followup`, { key, body: { user_request: 'more' } });
    expect([followup.status, followup.body.error.code]).toEqual([404, 'agent_not_found']);
  });
});
