import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';
import { readEvents } from '../support/sseEvents.js';

const servers = testServersForSuite();
let server: OzServer;
let listener: OzListener | undefined;

interface RpcAnswer {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown> & {
    content?: Array<{ type: string; text: string }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    tools?: Array<{ name: string }>;
  };
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;
async function rpc(
  method: string,
  params?: unknown,
  options: { url?: string; key?: string; headers?: Record<string, string> } = {},
): Promise<{ res: Response; body: RpcAnswer }> {
  const res = await server.fetch(options.url ?? `${server.url}/v1/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${options.key ?? server.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }),
  });
  return { res, body: res.status === 200 && res.headers.get('content-type') === 'application/json' ? ((await res.json()) as RpcAnswer) : ({} as RpcAnswer) };
}

describe('the MCP server (in process)', () => {
  it('initializes, pings and lists the service tools and one tool per agent', async () => {
    server = servers.create();
    const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'oz-mock' }, capabilities: { tools: {} } });
    expect((await rpc('ping')).body.result).toEqual({});
    const list = await rpc('tools/list');
    expect(list.body.result!.tools!.map((t) => t.name)).toEqual(['svc_whoami', 'svc_get_result', 'svc_followup', 'writer', 'approver']);
  });

  it('answers a notification with 202 and no body', async () => {
    server = servers.create();
    const res = await server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('answers -32601 for an unknown method and -32600 for a message that is not JSON-RPC', async () => {
    server = servers.create();
    expect((await rpc('resources/list')).body.error).toMatchObject({ code: -32601 });
    const res = await server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, method: 'ping' }),
    });
    expect(((await res.json()) as RpcAnswer).error).toMatchObject({ code: -32600 });
    const bad = await server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect([bad.status, bad.headers.get('x-error-code')]).toEqual([400, 'invalid_json']);
  });

  it('svc_whoami answers markdown by default, and JSON text plus structuredContent with format: json', async () => {
    server = servers.create();
    const md = await rpc('tools/call', { name: 'svc_whoami', arguments: {} });
    expect(md.body.result!.content![0]!.text).toMatch(
      /^# whoami\n\n- user: demo\n- auth_type: platform_key\n- tier: pro\n- key_label: demo key\n- rate_limit: \d+ of 100000 left/,
    );
    expect(md.body.result!.structuredContent).toBeUndefined();
    const json = await rpc('tools/call', { name: 'svc_whoami', arguments: { format: 'json' } });
    const who = json.body.result!.structuredContent!;
    expect(who).toMatchObject({ user: 'demo', auth_type: 'platform_key', tier: 'pro', key_label: 'demo key', rate_limit: { limit: 100000 } });
    expect(JSON.parse(json.body.result!.content![0]!.text)).toEqual(who);
  });

  it('runs an agent tool, gets its result, and follows up', async () => {
    server = servers.create();
    const run = await rpc('tools/call', { name: 'writer', arguments: { user_request: 'a limerick' } });
    const text = run.body.result!.content![0]!.text;
    const id = /execution_id: (\S+)/.exec(text)![1]!;
    expect(text).toBe(`Here is a draft for: a limerick\n\n---\nexecution_id: ${id}\n`);
    const got = await rpc('tools/call', { name: 'svc_get_result', arguments: { execution_id: id, format: 'json' } });
    expect(got.body.result!.structuredContent).toMatchObject({ id, status: 'succeeded', content: 'Here is a draft for: a limerick' });
    const follow = await rpc('tools/call', { name: 'svc_followup', arguments: { execution_id: id, user_request: 'funnier', format: 'json' } });
    expect(follow.body.result!.structuredContent).toMatchObject({ ok: true, content: 'Here is a draft for: funnier' });
    const missing = await rpc('tools/call', { name: 'svc_get_result', arguments: { execution_id: 'exe_nope' } });
    expect(missing.body.result).toMatchObject({ isError: true });
    expect(missing.body.result!.content![0]!.text).toMatch(/^# Error: execution_not_found/);
  });

  it('reports a failed agent run as a tool error (isError), not a JSON-RPC error', async () => {
    server = servers.create();
    const res = await rpc('tools/call', { name: 'approver', arguments: { user_request: 'ship' } });
    expect(res.body.result!.isError).toBe(true);
    expect(res.body.result!.content![0]!.text).toMatch(/^# Error: approval_required\n/);
  });

  it('answers -32602 for bad params: unknown tool, missing arguments, a bad format', async () => {
    server = servers.create();
    expect((await rpc('tools/call', { name: 'ghost', arguments: {} })).body.error).toMatchObject({ code: -32602 });
    expect((await rpc('tools/call', { name: 'writer', arguments: {} })).body.error).toMatchObject({ code: -32602, data: { missing: ['user_request'] } });
    expect((await rpc('tools/call', { name: 'svc_whoami', arguments: { format: 'xml' } })).body.error).toMatchObject({ code: -32602 });
    expect((await rpc('tools/call', {})).body.error).toMatchObject({ code: -32602 });
  });

  it('hides tools outside a key’s fence and answers -32602 for a call to one', async () => {
    server = servers.create();
    const { key } = server.addKey({ account: 'demo', tools: ['writer', 'svc_whoami'] });
    const list = await rpc('tools/list', undefined, { key });
    expect(list.body.result!.tools!.map((t) => t.name)).toEqual(['svc_whoami', 'writer']);
    const call = await rpc('tools/call', { name: 'approver', arguments: { user_request: 'x' } }, { key });
    expect(call.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/fence/) });
    expect((await rpc('tools/call', { name: 'writer', arguments: { user_request: 'x' } }, { key })).body.result!.isError).toBeUndefined();
  });

  it('answers one SSE message event when Accept prefers text/event-stream', async () => {
    server = servers.create();
    const res = await server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream, application/json;q=0.5' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'ping' }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { events } = await readEvents(res);
    expect(events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([['message', { jsonrpc: '2.0', id: 'a', result: {} }]]);
  });

  it('weighs Accept q-values as the four wires do: highest q wins, ties go first, q=0 refuses, a q not a number counts as 1', async () => {
    server = servers.create();
    const typeFor = async (accept: string) => {
      const res = await server.fetch(`${server.url}/v1/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      await res.body?.cancel();
      return res.headers.get('content-type')?.split(';')[0];
    };
    expect(await typeFor('application/json, text/event-stream;q=0.9')).toBe('application/json');
    expect(await typeFor('application/json, text/event-stream')).toBe('application/json');
    expect(await typeFor('application/json;q=0.2, text/event-stream;q=0.3')).toBe('text/event-stream');
    expect(await typeFor('application/json;q=0.5, text/event-stream;q=abc')).toBe('text/event-stream');
    expect(await typeFor('text/event-stream;q=0, application/json;q=0.1')).toBe('application/json');
  });

  it('takes X-API-Key with an ozk_ key, and answers 401 for a legacy key', async () => {
    server = servers.create();
    const viaHeader = await server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(viaHeader.status).toBe(200);
    expect((await rpc('ping', undefined, { key: server.keys.modelsKey })).res.status).toBe(401);
  });

  it('serves the same server at its own URL (mcpUrl), with 405 for GET and 404 elsewhere on that host', async () => {
    server = servers.create();
    expect(server.mcpUrl).toBe('http://mcp.oz.test/v1');
    const res = await rpc('tools/list', undefined, { url: server.mcpUrl });
    expect(res.body.result!.tools).toHaveLength(5);
    expect(server.journal.last('mcpRequest')).toMatchObject({ surface: 'mcp', path: '/v1' });
    const get = await server.fetch(server.mcpUrl, { headers: { accept: 'text/event-stream' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
    expect((await server.fetch('http://mcp.oz.test/v1/tools', { headers: { authorization: `Bearer ${server.apiKey}` } })).status).toBe(404);
    expect((await server.fetch(`${server.url}/v1/mcp`)).status).toBe(405);
  });
});

describe('MCP protocol details (contract: "MCP server, protocol details")', () => {
  function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
    return server.fetch(`${server.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });
  }

  it('initialize answers the client’s version when supported (2025-06-18, 2025-11-25), else the newest', async () => {
    server = servers.create();
    const init = async (protocolVersion: unknown) =>
      (await rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } })).body.result!.protocolVersion;
    expect(await init('2025-06-18')).toBe('2025-06-18');
    expect(await init('2025-11-25')).toBe('2025-11-25');
    for (const other of ['2025-03-26', '2024-11-05', '1999-01-01', 7]) expect(await init(other)).toBe('2025-11-25');
  });

  it('answers HTTP 400 unsupported_protocol_version for an MCP-Protocol-Version header it does not speak', async () => {
    server = servers.create();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const bad = await post(ping, { 'mcp-protocol-version': '1999-01-01' });
    expect([bad.status, bad.headers.get('x-error-code')]).toEqual([400, 'unsupported_protocol_version']);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'MCP-Protocol-Version 1999-01-01 is not supported: this server speaks 2025-06-18 and 2025-11-25.',
    );
    for (const version of ['2025-06-18', '2025-11-25']) expect((await post(ping, { 'mcp-protocol-version': version })).status).toBe(200);
    expect((await post(ping)).status).toBe(200);
  });

  it('answers a response sent by the client, like a notification, with 202 and no body', async () => {
    server = servers.create();
    for (const message of [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} },
    ]) {
      const res = await post(JSON.stringify(message));
      expect([res.status, await res.text(), res.headers.get('content-type')], JSON.stringify(message)).toEqual([202, '', null]);
    }
  });

  it('answers a batch with JSON-RPC -32600 saying batches are not supported', async () => {
    server = servers.create();
    const res = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
      { accept: 'application/json' },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Batches are not supported: protocol versions 2025-06-18 and 2025-11-25 take one JSON-RPC message per request.' },
    });
  });

  it('answers -32600 for a null id or an id that is neither a string nor a number, and never runs the method', async () => {
    server = servers.create();
    for (const id of [null, true, { a: 1 }]) {
      const res = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'writer', arguments: { user_request: 'x' } } }), {
        accept: 'application/json',
      });
      const body = (await res.json()) as RpcAnswer;
      expect([res.status, body.id, body.error?.code], JSON.stringify(id)).toEqual([200, null, -32600]);
    }
    expect(server.journal.filter({ method: 'POST' }).every((e) => e.executionId === null)).toBe(true);
  });

  it('checks tools/call arguments against the tool’s inputSchema: -32602 naming the field', async () => {
    server = servers.create();
    const typed = await rpc('tools/call', { name: 'writer', arguments: { user_request: 5 } });
    expect(typed.body.error).toEqual({ code: -32602, message: 'params.arguments.user_request must be a string.' });
    const missing = await rpc('tools/call', { name: 'svc_followup', arguments: { user_request: 'x' } });
    expect(missing.body.error).toEqual({
      code: -32602,
      message: 'Missing required field: params.arguments.execution_id.',
      data: { missing: ['execution_id'] },
    });
    const format = await rpc('tools/call', { name: 'svc_whoami', arguments: { format: 'xml' } });
    expect(format.body.error).toEqual({ code: -32602, message: 'params.arguments.format must be one of: markdown, json.' });
    const noName = await rpc('tools/call', { arguments: {} });
    expect(noName.body.error).toEqual({ code: -32602, message: 'Missing required field: params.name.', data: { missing: ['params.name'] } });
    expect(server.journal.filter({ method: 'POST' }).every((e) => e.executionId === null)).toBe(true);
  });
});

/** One request over a raw socket, with a Host header of the test's choosing (fetch does not let one set it). */
function rawPost(
  url: string,
  host: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('DNS-rebinding protection on loopback listeners', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

  it('answers 403 forbidden_host (the error envelope) for a Host that is not a loopback name with the listener’s port', async () => {
    server = servers.create();
    listener = await server.listen();
    const auth = { authorization: `Bearer ${server.apiKey}` };
    for (const url of [listener.mcpUrl, `${listener.url}/v1/mcp`]) {
      const port = new URL(url).port;
      for (const host of ['evil.example.com', `evil.example.com:${port}`, `127.0.0.1:${Number(port) + 1}`, 'localhost', `127.0.0.2:${port}`]) {
        const res = await rawPost(url, host, ping, auth);
        expect([res.status, res.headers['x-error-code']], `${url} Host ${host}`).toEqual([403, 'forbidden_host']);
        expect(JSON.parse(res.text).error).toMatchObject({ code: 'forbidden_host', message: expect.stringContaining(`Host ${host} is not allowed`) });
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
        expect((await rawPost(url, host, ping, auth)).status, `${url} Host ${host}`).toBe(200);
      }
    }
    // Before the key: a rebound page has none, and learns nothing about keys.
    expect((await rawPost(listener.mcpUrl, 'evil.example.com', ping)).status).toBe(403);
  });

  it('keeps CORS from any origin, and leaves the in-process mount (no listener) alone', async () => {
    server = servers.create();
    listener = await server.listen();
    const port = new URL(listener.mcpUrl).port;
    const res = await rawPost(listener.mcpUrl, `localhost:${port}`, ping, { authorization: `Bearer ${server.apiKey}`, origin: 'https://app.example.com' });
    expect([res.status, res.headers['access-control-allow-origin']]).toEqual([200, '*']);
    expect((await rpc('ping', undefined, { url: server.mcpUrl })).res.status).toBe(200);
  });

  it('does not apply to a listener bound to a non-loopback address', async () => {
    server = servers.create();
    listener = await server.listen({ host: '0.0.0.0' });
    const res = await rawPost(`http://127.0.0.1:${new URL(listener.mcpUrl).port}/v1`, 'oz.internal.example:443', ping, {
      authorization: `Bearer ${server.apiKey}`,
    });
    expect(res.status).toBe(200);
  });
});

describe('the official MCP client (StreamableHTTPClientTransport) over real HTTP', () => {
  for (const where of ['mcpUrl', '/v1/mcp'] as const) {
    it(`connects, lists tools and calls them at ${where}`, async () => {
      server = servers.create();
      listener = await server.listen();
      const url = where === 'mcpUrl' ? listener.mcpUrl : `${listener.url}/v1/mcp`;
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${server.apiKey}` } } });
      const errors: unknown[] = [];
      const client = new Client({ name: 'oz-test', version: '1.0.0' });
      client.onerror = (e) => errors.push(e);
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['svc_whoami', 'svc_get_result', 'svc_followup', 'writer', 'approver']);
      const result = await client.callTool({ name: 'writer', arguments: { user_request: 'over mcp' } });
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Here is a draft for: over mcp\n\n---\nexecution_id: exe_/);
      const who = await client.callTool({ name: 'svc_whoami', arguments: { format: 'json' } });
      expect(who.structuredContent).toMatchObject({ user: 'demo', auth_type: 'platform_key' });
      await new Promise((r) => setTimeout(r, 20));
      await client.close();
      expect(errors).toEqual([]);
      expect(server.journal.filter({ method: 'GET' }).map((e) => e.status)).toEqual([405]);
    });
  }

  it('rejects a call outside the key’s fence with -32602', async () => {
    server = servers.create();
    listener = await server.listen();
    const { key } = server.addKey({ account: 'demo', tools: ['svc_whoami'] });
    const client = new Client({ name: 'oz-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['svc_whoami']);
    await expect(client.callTool({ name: 'writer', arguments: { user_request: 'x' } })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
