/**
 * The contract slips a fuzzer found (issue 22, point 9) in the steps every request goes through: each answer here is
 * what the contract says, on every route it applies to. (The YAML wire's slip is in wire/yamlScalars.test.ts, chat
 * completions' in handlers/models/chatStreamOptions.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

let server: OzServer;
let listener: OzListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
  await server?.close();
});

describe('POST /v1/mcp checks x-trace-id like every other write', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('an empty, 256-character or spaced trace id answers 422 invalid_params, on /v1/mcp and the MCP URL', async () => {
    server = createTestServer();
    for (const url of [`${server.url}/v1/mcp`, server.mcpUrl]) {
      for (const traceId of ['', 'x'.repeat(256), 'has space', 'tab\there']) {
        const res = await server.fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json', 'x-trace-id': traceId },
          body: JSON.stringify(initialize),
        });
        const body = (await res.json()) as ErrorBody;
        expect([url, traceId.length, res.status, body.error.code]).toEqual([url, traceId.length, 422, 'invalid_params']);
        expect(body.error.message).toMatch(/x-trace-id must be 1 to 255 printable ASCII characters/);
      }
      const ok = await server.fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json', 'x-trace-id': 'x'.repeat(255) },
        body: JSON.stringify(initialize),
      });
      expect(ok.status).toBe(200);
    }
  });
});

/** Every GET route of openapi.json with an integer query parameter, with its path parameters filled for the demo seed. */
function integerQueryRoutes(): Array<{ path: string; name: string }> {
  const doc = openapi as unknown as {
    paths: Record<string, Record<string, { parameters?: Array<{ $ref?: string; in?: string; name?: string; schema?: { type?: string } }> }>>;
    components: { parameters: Record<string, { in: string; name: string; schema?: { type?: string } }> };
  };
  const demo: Record<string, string> = { campus: 'acme' };
  const out: Array<{ path: string; name: string }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const parameters = (item.get?.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p));
    for (const p of parameters) {
      if (p.in === 'query' && p.schema?.type === 'integer') out.push({ path: path.replace(/\{(\w+)\}/g, (_, n: string) => demo[n]!), name: p.name! });
    }
  }
  return out;
}

describe('integer query parameters accept decimal digits only', () => {
  it('limit=1e1, +5, " 5", 5.0, 0x5 answer 422 invalid_params naming the parameter on every list route; 5 is read', async () => {
    server = createTestServer();
    const routes = integerQueryRoutes();
    expect(routes.length).toBe(8);
    for (const { path, name } of routes) {
      for (const raw of ['1e1', '%2B5', '%205', '5%20', '5.0', '0x5', '']) {
        const res = await callJson<ErrorBody>(server, 'GET', `${path}?${name}=${raw}`);
        expect([path, raw, res.status, res.body.error?.code]).toEqual([path, raw, 422, 'invalid_params']);
        expect(res.body.error.message).toContain(name);
      }
      expect((await call(server, 'GET', `${path}?${name}=5`)).status).toBe(200);
    }
  });
});

describe('x-request-id on every answer of the port', () => {
  it('the control plane, the dashboard, health, 404s, preflights and the MCP listener all carry one', async () => {
    const adminToken = 'ozadm_TestTestTestTestTestTestTestTest';
    server = createTestServer({ adminToken });
    listener = await server.listen();
    const admin = { authorization: `Bearer ${adminToken}` };
    const requests: Array<[string, string, Record<string, string>?]> = [
      ['GET', `${listener.url}/health`],
      ['GET', `${listener.url}/no-such-route`],
      ['OPTIONS', `${listener.url}/v1/tools`, { origin: 'http://example.com', 'access-control-request-method': 'GET' }],
      ['GET', `${listener.url}/_oz/settings`, admin],
      ['GET', `${listener.url}/_oz/settings`],
      ['GET', `${listener.url}/_oz/openapi.json`],
      ['POST', `${listener.url}/_oz/no-such-route`, admin],
      ['GET', `${listener.dashboardUrl}/api/cli/authorize?port=5000&state=s`],
      ['GET', `${listener.dashboardUrl}/api/cli/authorize`],
      ['POST', `${listener.dashboardUrl}/api/cli/token`],
      ['GET', `${listener.dashboardUrl}/no-such-page`],
      ['GET', listener.mcpUrl],
      ['OPTIONS', listener.mcpUrl, { origin: 'http://example.com', 'access-control-request-method': 'POST' }],
    ];
    const ids = new Set<string>();
    for (const [method, url, headers] of requests) {
      const res = await fetch(url, { method, headers, redirect: 'manual' });
      await res.arrayBuffer();
      const id = res.headers.get('x-request-id');
      expect([method, url, res.status, id]).toEqual([method, url, res.status, expect.stringMatching(/^req_[A-Za-z0-9]+$/)]);
      ids.add(id!);
    }
    expect(ids.size).toBe(requests.length);
  });
});

describe('idempotent replays compare the parsed body', () => {
  const body = { building: 'lab', title: 'replayed', body: 'b', priority: 2 };

  it('the same content in another key order, or as YAML, replays; a real difference answers 409', async () => {
    server = createTestServer();
    const post = (text: string, contentType = 'application/json') =>
      call(server, 'POST', '/v1/companies/acme/items', {
        body: text,
        headers: { 'x-trace-id': 'same-item', 'content-type': contentType, accept: 'application/json' },
      });
    const first = await post(JSON.stringify(body));
    expect(first.status).toBe(201);
    const id = ((await first.json()) as { id: string }).id;
    const reordered = await post('{ "priority": 2, "body": "b", "title": "replayed", "building": "lab" }');
    expect([reordered.status, reordered.headers.get('x-idempotent-replayed'), ((await reordered.json()) as { id: string }).id]).toEqual([201, 'true', id]);
    const asYaml = await post('title: replayed\nbuilding: lab\npriority: 2\nbody: b\n', 'application/yaml');
    expect([asYaml.status, asYaml.headers.get('x-idempotent-replayed'), ((await asYaml.json()) as { id: string }).id]).toEqual([201, 'true', id]);
    const other = await post(JSON.stringify({ ...body, priority: 3 }));
    expect([other.status, other.headers.get('x-error-code')]).toEqual([409, 'idempotency_conflict']);
    const items = await callJson<{ data: Array<{ title: string }> }>(server, 'GET', '/v1/companies/acme/items?limit=100');
    expect(items.body.data.filter((i) => i.title === 'replayed')).toHaveLength(1);
  });
});

describe('integers outside the safe range answer 422 naming the field', () => {
  it('"priority": 9007199254740993 is refused, not stored as 9007199254740992', async () => {
    server = createTestServer();
    const res = await callJson<ErrorBody>(server, 'POST', '/v1/companies/acme/items', {
      body: '{"building":"lab","title":"t","body":"b","priority":9007199254740993}',
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_params']);
    expect(res.body.error.message).toBe('priority must be a number JavaScript holds exactly: integers from -9007199254740991 to 9007199254740991.');
    const nested = await callJson<ErrorBody>(server, 'POST', '/v1/tools/sum/execute', { body: '{"params":{"a":1,"b":-1e300}}' });
    expect([nested.status, nested.body.error.message]).toEqual([422, expect.stringMatching(/^params\.b must be a number JavaScript holds exactly/)]);
    const asYaml = await callJson<ErrorBody>(server, 'POST', '/v1/companies/acme/items', {
      body: 'building: lab\ntitle: t\nbody: b\npriority: 12345678901234567890\n',
      headers: { 'content-type': 'application/yaml', accept: 'application/json' },
    });
    expect([asYaml.status, asYaml.body.error.message]).toEqual([422, expect.stringMatching(/^priority must be/)]);
    // the largest exact integer, and long digit runs inside strings, pass
    const ok = await callJson<{ priority: number }>(server, 'POST', '/v1/companies/acme/items', {
      body: '{"building":"lab","title":"12345678901234567890","body":"1e5","priority":9007199254740991}',
    });
    expect([ok.status, ok.body.priority]).toEqual([201, 9007199254740991]);
    const float = await callJson<{ content: string }>(server, 'POST', '/v1/tools/sum/execute', { body: '{"a":1.5e-3,"b":2.5}' });
    expect(float.status).toBe(200);
  });
});
