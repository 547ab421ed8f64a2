import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, Tool, ToolList } from '../../../src/generated/types.js';
import { OzMockError, type OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

function execute(tool: string, body: unknown, headers?: Record<string, string>) {
  return callJson<ExecutionResult & ErrorBody>(server, 'POST', `/v1/tools/${tool}/execute`, { body, headers });
}

describe('tools', () => {
  it('lists the demo tools by name and pages them', async () => {
    server = createTestServer();
    const all = await callJson<ToolList>(server, 'GET', '/v1/tools');
    expect(all.body.data.map((t) => t.name)).toEqual(['crm_lookup', 'echo', 'slow', 'sum']);
    const page = await callJson<ToolList>(server, 'GET', '/v1/tools?limit=3');
    expect(page.body.next_cursor).toBe('slow');
    expect((await callJson<ToolList>(server, 'GET', '/v1/tools?cursor=slow')).body.data.map((t) => t.name)).toEqual(['sum']);
  });

  it('gives a tool’s card, and 404 tool_not_found for an unknown tool', async () => {
    server = createTestServer();
    const card = await callJson<Tool>(server, 'GET', '/v1/tools/crm_lookup');
    expect(card.body).toMatchObject({ name: 'crm_lookup', required: ['query'], connection: 'crm' });
    const missing = await callJson<ErrorBody>(server, 'GET', '/v1/tools/nope');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'tool_not_found']);
    expect((await execute('nope', {})).status).toBe(404);
  });

  it('executes with the fields inside params or at the top level', async () => {
    server = createTestServer();
    const inside = await execute('echo', { params: { text: 'inside' } });
    expect(inside.status).toBe(200);
    expect(inside.body).toEqual({ ok: true, content: 'inside', execution_id: expect.stringMatching(/^exe_/), request_id: expect.stringMatching(/^req_/) });
    expect(inside.headers.get('x-execution-id')).toBe(inside.body.execution_id);
    expect(inside.headers.get('x-request-id')).toBe(inside.body.request_id);
    expect((await execute('echo', { text: 'top' })).body.content).toBe('top');
    expect((await execute('sum', { a: 2, b: 40 })).body.content).toBe('42');
  });

  it('answers 422 invalid_params with missing, and writes no execution', async () => {
    server = createTestServer();
    const res = await execute('sum', { a: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid_params', missing: ['b'] });
    expect(res.headers.get('x-execution-id')).toBeNull();
    const typed = await execute('sum', { a: 1, b: 'two' });
    expect([typed.status, typed.body.error.message]).toEqual([422, 'b must be a number.']);
    expect((await execute('echo', { params: 'text' })).status).toBe(422);
    expect(server.journal.count({ operationId: 'executeTool', status: 200 })).toBe(0);
    const list = await callJson<{ data: unknown[] }>(server, 'GET', '/v1/executions');
    expect(list.body.data).toEqual([]);
  });

  it('validates params against the whole card schema (JSON Schema 2020-12): enums, ranges, nested fields, code points', async () => {
    server = createTestServer();
    server.addTool({
      name: 'book',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'https://example.com/book.json',
        properties: {
          room: { type: 'string', enum: ['red', 'blue'] },
          seats: { type: 'integer', minimum: 1, maximum: 8 },
          host: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 5 } } },
        },
        additionalProperties: false,
      },
      required: ['room'],
      handler: ({ room }) => `Booked ${String(room)}.`,
    });
    const problem = async (params: Record<string, unknown>) => {
      const res = await execute('book', params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      return res.body.error;
    };
    expect((await problem({ room: 'green' })).message).toBe('room must be one of: red, blue.');
    expect((await problem({ room: 'red', seats: 9 })).message).toBe('seats must be an integer from 1 to 8.');
    expect(await problem({ room: 'red', host: {} })).toMatchObject({ message: 'Missing required field: host.email.', missing: ['host.email'] });
    expect((await problem({ room: 'red', colour: 'x' })).message).toBe('Unknown field: colour.');
    expect((await problem({ room: 'red', host: { email: '😀'.repeat(6) } })).message).toBe('host.email must be a string of at most 5 characters.');
    expect((await execute('book', { room: 'red', seats: 8, host: { email: '😀'.repeat(5) } })).body.content).toBe('Booked red.');
    const card = await callJson<{ input_schema: { required: string[] } }>(server, 'GET', '/v1/tools/book');
    expect(card.body.input_schema.required).toEqual(['room']);
  });

  it('renders missing fields on the text and markdown wires', async () => {
    server = createTestServer();
    const text = await call(server, 'POST', '/v1/tools/sum/execute?format=text', { body: {} });
    expect(await text.text()).toBe('invalid_params: Missing required fields: a, b.\nmissing: a, b\n');
    const md = await call(server, 'POST', '/v1/tools/sum/execute?format=markdown', { body: {} });
    expect(await md.text()).toBe('# Error: invalid_params\n\nMissing required fields: a, b.\n\n- missing: a, b\n');
  });

  it('answers 424 connection_required with connect until crm is linked', async () => {
    server = createTestServer();
    const first = await execute('crm_lookup', { query: 'ada@example.com' });
    expect(first.status).toBe(424);
    expect(first.headers.get('x-error-code')).toBe('connection_required');
    expect(first.body.error.connect).toEqual({ provider: 'crm', method: 'oauth', link: 'POST /v1/connections/crm/link' });
    server.linkConnection('demo', 'crm');
    const second = await execute('crm_lookup', { query: 'ada@example.com' });
    expect(second.status).toBe(200);
    expect(second.body.content).toContain('ada@example.com');
  });

  it('answers 424 credential_required with connect until a tool’s credential is linked', async () => {
    server = createTestServer();
    server.addTool({ name: 'geocode', credential: { provider: 'maps', method: 'api_key' }, handler: () => 'somewhere' });
    const first = await execute('geocode', {});
    expect([first.status, first.headers.get('x-error-code')]).toEqual([424, 'credential_required']);
    expect(first.body.error.connect).toEqual({ provider: 'maps', method: 'api_key', link: 'POST /v1/connections/maps/link' });
    expect(first.headers.get('x-execution-id')).toBeNull();
    await callJson(server, 'POST', '/v1/connections/maps/link', { body: { method: 'api_key', api_key: 'k' } });
    expect((await execute('geocode', {})).body.content).toBe('somewhere');
  });

  it('fails the run with the handler’s OzMockError or 500 internal_error, naming the execution', async () => {
    server = createTestServer();
    server.addTool({
      name: 'picky',
      handler: () => {
        throw new OzMockError(409, 'approval_required', 'Not yet.');
      },
    });
    server.addTool({
      name: 'broken',
      handler: () => {
        throw new Error('boom');
      },
    });
    const picky = await execute('picky', {});
    expect(picky.status).toBe(409);
    expect(picky.body.error.execution_id).toBe(picky.headers.get('x-execution-id'));
    const broken = await execute('broken', {}, { 'x-trace-id': 'trace-broken' });
    expect([broken.status, broken.body.error.code, broken.headers.get('x-execution-id')]).toEqual([500, 'internal_error', 'trace-broken']);
    expect(server.getExecution('trace-broken')).toMatchObject({ status: 'failed', error: { code: 'internal_error', message: 'boom' } });
    const md = await call(server, 'POST', '/v1/tools/picky/execute?format=markdown', { body: {} });
    const id = md.headers.get('x-execution-id');
    expect(await md.text()).toBe(`# Error: approval_required\n\nNot yet.\n\n---\nexecution_id: ${id}\n`);
  });

  it('runs an async handler tool and a handler added by the test', async () => {
    server = createTestServer();
    server.addTool({ name: 'upper', required: ['s'], handler: async (p) => String(p.s).toUpperCase() });
    expect((await execute('upper', { s: 'abc' })).body.content).toBe('ABC');
  });

  it('answers 504 timeout when a sync run outlasts syncTimeoutMs; the run goes on', async () => {
    server = createTestServer({ syncTimeoutMs: 20 });
    const res = await execute('slow', { ms: 60 });
    expect([res.status, res.body.error.code]).toEqual([504, 'timeout']);
    expect(res.headers.get('retry-after')).toBe('1');
    const id = res.headers.get('x-execution-id')!;
    expect(server.getExecution(id)!.status).toBe('running');
    await server.idle();
    expect(server.getExecution(id)).toMatchObject({ status: 'succeeded', content: 'Waited 60 ms.' });
  });
});
