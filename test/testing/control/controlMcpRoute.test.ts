/**
 * `POST /_oz/mcp` and `POST /_oz/sessions/{id}/mcp` through the official MCP client (`Client` over
 * `StreamableHTTPClientTransport`) on real HTTP: the tools and their schemas, calls and their answers, errors as
 * tool errors, the admin token, and a session's tools acting on that session alone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';
import { CONTROL_TOOL_NAMES, controlTools } from '../../../src/testing/control/controlTools.js';

const TOKEN = 'ozadm_McpMcpMcpMcpMcpMcpMcpMcpMcpMcpMc';
let server: OzServer;
let listener: OzListener;
const clients: Client[] = [];

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-28T10:00:00Z', frozen: true } });
  listener = await server.listen();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(path = '/_oz/mcp', token: string | null = TOKEN, fetchVia?: typeof fetch, base = listener.url): Promise<Client> {
  const client = new Client({ name: 'oz-mock-test', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`), { requestInit: { headers }, ...(fetchVia ? { fetch: fetchVia } : {}) }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> };
}

/** The JSON of a tool's text content. */
const textJson = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as Record<string, any>;

describe('POST /_oz/mcp', () => {
  it('lists server_info and one tool per control action, with the schemas derived from the control plane', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'oz-mock', version: '1.0.0' });
    expect(client.getInstructions()).toContain(`url: ${listener.url}`);
    expect(client.getInstructions()).toContain('list_unused');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['server_info', ...Object.values(CONTROL_TOOL_NAMES)]);
    for (const derived of controlTools('server')) {
      const listed = tools.find((t) => t.name === derived.name)!;
      expect(listed.inputSchema).toEqual(derived.inputSchema);
      expect(listed.outputSchema).toEqual(derived.outputSchema);
      expect(listed.description).toBe(derived.description);
    }
  });

  it('runs the control actions: answers as JSON text and structuredContent (checked by the client against the output schema)', async () => {
    const client = await connect();
    const fault = await call(client, 'add_fault', { type: 'error', operationId: 'listTools', status: 503, code: 'upstream_error' });
    expect(fault.isError).toBeFalsy();
    expect(fault.structuredContent).toMatchObject({ id: expect.stringMatching(/^flt_/), type: 'error', operationId: 'listTools', remaining: 1, hits: 0 });
    expect(textJson(fault)).toEqual(fault.structuredContent);
    expect(server.unused().faults.map((f) => f.id)).toEqual([fault.structuredContent!.id]);
    expect((await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } })).status).toBe(503);
    const journal = await call(client, 'read_journal', { operationId: 'listTools' });
    expect(journal.structuredContent!.data.map((e: { status: number; fault: string }) => [e.status, e.fault])).toEqual([[503, 'error']]);
    expect((await call(client, 'verify_journal', { operationId: 'listTools', status: 503, times: 1 })).structuredContent).toEqual({ ok: true, count: 1 });
    expect((await call(client, 'advance_clock', { ms: 60_000 })).structuredContent).toMatchObject({ now: '2026-11-28T10:01:00.000Z', frozen: true });
    expect((await call(client, 'load_fixtures', { tools: [{ name: 'shout', answer: '{{text}}!' }] })).structuredContent).toMatchObject({ tools: 1 });
    const stub = await call(client, 'add_stub', {
      operationId: 'getTool',
      match: { path: { tool: 'echo' } },
      answer: { status: 404, body: { error: { code: 'tool_not_found', message: 'gone' } } },
    });
    expect((await call(client, 'list_stubs')).structuredContent!.data.map((s: { id: string }) => s.id)).toEqual([stub.structuredContent!.id]);
    expect((await call(client, 'remove_stub', { id: stub.structuredContent!.id })).structuredContent).toEqual({ ok: true });
    expect(server.stubs.list()).toEqual([]);
    expect((await call(client, 'reset')).structuredContent).toEqual({ ok: true });
    expect(server.journal.entries).toHaveLength(0);
  });

  it("answers a refused action as a tool error holding the control plane's status, code and message", async () => {
    const client = await connect();
    const bad = await call(client, 'add_fault', { type: 'error', operationId: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(textJson(bad)).toEqual({ error: { status: 422, code: 'invalid_params', message: 'operationId names no operation of openapi.json: nope.' } });
    expect(textJson(await call(client, 'remove_fault', { id: 'flt_nope' }))).toEqual({
      error: { status: 404, code: 'fault_not_found', message: 'No pending fault flt_nope.' },
    });
    expect(textJson(await call(client, 'remove_fault', {}))).toEqual({
      error: { status: 422, code: 'invalid_params', message: 'id is required (a string).', missing: ['id'] },
    });
    const failed = textJson(await call(client, 'verify_journal', { operationId: 'getTool' }));
    expect(failed.error).toMatchObject({ status: 422, code: 'verification_failed', count: 0, nearMisses: [] });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool no_such_tool/);
  });

  it('server_info answers the URLs', async () => {
    const info = await call(await connect(), 'server_info');
    expect(info.structuredContent).toEqual({
      url: listener.url,
      controlPlaneUrl: `${listener.url}/_oz/`,
      controlPlaneOpenapi: `${listener.url}/_oz/openapi.json`,
      controlMcpUrl: `${listener.url}/_oz/mcp`,
    });
  });

  it('works in process too (server.fetch, no socket)', async () => {
    const client = await connect('/_oz/mcp', TOKEN, server.fetch as typeof fetch, server.url);
    await call(client, 'add_fault', { type: 'delay', operationId: 'getTool', ms: 5 });
    expect(server.faults.pending).toHaveLength(1);
  });

  it('needs the admin token: 401 without it or with a wrong one, and no tool ran', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${listener.url}/_oz/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add_fault', arguments: { type: 'drop' } } }),
      });
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer ozadm_WrongWrongWrongWrongWrongWrongWr' },
      { authorization: `Bearer ${server.apiKey}` },
    ];
    for (const headers of refused) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    expect(server.faults.pending).toEqual([]);
    await expect(connect('/_oz/mcp', null)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('"code":"unauthorized"') });
    const answered = await post({ authorization: `Bearer ${TOKEN}` });
    expect(answered.status).toBe(200);
    expect(server.faults.pending).toHaveLength(1);
  });

  it('is stateless JSON-RPC over POST: GET is 405, a bad message a JSON-RPC error', async () => {
    const get = await fetch(`${listener.url}/_oz/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const bad = await fetch(`${listener.url}/_oz/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"nope":',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('is 404 with the control plane off', async () => {
    const off = createOzServer({ adminToken: false });
    try {
      const res = await off.fetch(`${off.url}/_oz/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('is described in the control plane document, for the server and for a session', async () => {
    const doc = (await (await fetch(`${listener.url}/_oz/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/_oz/mcp']!.post!.operationId).toBe('controlMcp');
    expect(doc.paths['/_oz/sessions/{session}/mcp']!.post!.operationId).toBe('controlMcpInSession');
  });
});

describe('POST /_oz/sessions/{id}/mcp', () => {
  it("acts on the session alone: its faults, journal and stubs, never the server's", async () => {
    const session = server.session();
    const client = await connect(`/_oz/sessions/${session.id}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['server_info', ...controlTools('session').map((t) => t.name)]);
    expect(client.getInstructions()).toContain(`session ${session.id}`);
    await call(client, 'add_fault', { type: 'error', operationId: 'listTools', status: 503, code: 'upstream_error' });
    expect(server.faults.pending).toEqual([]);
    expect(session.faults.pending).toHaveLength(1);
    const list = (key: string) => fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await list(server.apiKey)).toBe(200);
    expect(await list(session.apiKey)).toBe(503);
    expect((await call(client, 'read_journal')).structuredContent!.data.map((e: { status: number }) => e.status)).toEqual([503]);
    const serverJournal = await call(await connect(), 'read_journal');
    expect(serverJournal.structuredContent!.data.map((e: { status: number }) => e.status)).toEqual([200]);
    const info = await call(client, 'server_info');
    expect(info.structuredContent).toMatchObject({
      session: session.id,
      apiKey: session.apiKey,
      controlMcpUrl: `${listener.url}/_oz/sessions/${session.id}/mcp`,
    });
    expect(info.structuredContent!.keys.map((k: { api_key: string }) => k.api_key)).toEqual(session.keys.map((k) => k.apiKey));
    await session.close();
  });

  it('is 404 session_not_found for a session that is not live', async () => {
    const res = await fetch(`${listener.url}/_oz/sessions/ses_gone/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('session_not_found');
  });
});
