/**
 * Chaos over HTTP: `PUT`, `GET`, `DELETE /_oz/chaos` (and a session's under `/_oz/sessions/{id}/`), the faults a
 * seed gives on a real loopback listener (the same as in process), 422 naming the field of a bad document, and the
 * MCP tools of the control plane.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectOzMock, type OzListener, type OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { chaosSequence, outcomesOf, SEQUENCE_DOCUMENT } from '../harness/chaosSequence.js';

const TOKEN = 'ozadm_ChaosChaosChaosChaosChaosChaosCh';
let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createTestServer({ adminToken: TOKEN });
  listener = await server.listen();
});
afterAll(async () => {
  await listener.close();
  await server.close();
});
beforeEach(() => server.reset());

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${listener.url}/_oz${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

const echo = (key = server.apiKey) =>
  fetch(`${listener.url}/v1/tools/echo/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{"text":"x"}',
  });

describe('/_oz/chaos over real HTTP', () => {
  it('PUT sets the rules (the same faults as in process for the same seed and requests), GET reads them, DELETE clears them', async () => {
    expect(await control('GET', '/chaos')).toEqual({ status: 200, body: { chaos: null } });
    expect(await control('PUT', '/chaos', SEQUENCE_DOCUMENT)).toEqual({ status: 200, body: { chaos: SEQUENCE_DOCUMENT } });
    const overHttp = await chaosSequence((req) => fetch(req), listener.url, server.apiKey);
    const journal = outcomesOf(server);
    expect(server.journal.entries.every((e) => e.mount === 'http')).toBe(true);
    expect(overHttp).toContain('dropped');
    // Again from the seed: the same faults.
    await control('POST', '/reset');
    await control('PUT', '/chaos', SEQUENCE_DOCUMENT);
    expect(await chaosSequence((req) => fetch(req), listener.url, server.apiKey)).toEqual(overHttp);
    expect(outcomesOf(server).filter((o) => o.operationId !== null)).toEqual(journal);
    // In process, the same.
    const inProcess = createTestServer({ apiKey: server.apiKey });
    inProcess.chaos.set(SEQUENCE_DOCUMENT);
    expect(await chaosSequence((req) => inProcess.fetch(req), inProcess.url, inProcess.apiKey)).toEqual(overHttp);
    await inProcess.close();
    // Another seed, other faults.
    await control('PUT', '/chaos', { ...SEQUENCE_DOCUMENT, seed: 2 });
    expect(await chaosSequence((req) => fetch(req), listener.url, server.apiKey)).not.toEqual(overHttp);
    expect(await control('DELETE', '/chaos')).toEqual({ status: 200, body: { ok: true } });
    expect(server.chaos.get()).toBeNull();
  });

  it("the journal over HTTP carries each entry's chaos", async () => {
    await control('PUT', '/chaos', {
      seed: 1,
      rules: [{ match: { operationId: 'executeTool' }, probability: 1, fault: { type: 'error', code: 'internal_error', retryAfter: 0 } }],
    });
    expect((await echo()).status).toBe(500);
    await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const { body } = await control('GET', '/journal');
    const entries = body.data as Array<{ operationId: string; chaos: unknown; fault: unknown }>;
    expect(entries.find((e) => e.operationId === 'executeTool')).toMatchObject({ fault: 'error', chaos: { rule: 0, draw: expect.any(Number) } });
    expect(entries.find((e) => e.operationId === 'listTools')).toMatchObject({ fault: null, chaos: null });
  });

  it.each([
    [{ seed: 1, rules: [{ probability: 2, fault: { type: 'drop' } }] }, 'rules[0].probability must be a number from 0 to 1.'],
    [{ seed: 'x', rules: [] }, 'seed must be an integer.'],
    [
      { seed: 1, rules: [{ probability: 1, fault: { type: 'delay', lognormal: { median: 1, sigma: 1 } } }] },
      'rules[0].fault.lognormal.max must be a number of ms >= 0.',
    ],
    [
      { seed: 1, rules: [{ match: { operationId: 'nope' }, probability: 1, fault: { type: 'drop' } }] },
      'rules[0].match.operationId names no operation of openapi.json: nope.',
    ],
  ])('a bad document answers 422 naming the field, and the server goes on: %j', async (doc, message) => {
    const kept = { seed: 3, rules: [{ probability: 0, fault: { type: 'lose' } }] };
    await control('PUT', '/chaos', kept);
    const refused = await control('PUT', '/chaos', doc);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'invalid_params', message });
    expect((await control('GET', '/chaos')).body).toEqual({ chaos: kept });
    expect((await echo()).status).toBe(200);
  });

  it('dribble over a socket: a buffered answer and an event stream arrive whole, in pieces', async () => {
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
    const plain = await (await fetch(`${listener.url}/v1/tools`, { headers })).text();
    const stream = () =>
      fetch(`${listener.url}/v1/execute`, {
        method: 'POST',
        headers: { ...headers, 'x-trace-id': `t-${Math.random()}` },
        body: JSON.stringify({ agent: 'writer', user_request: 'drip', stream: true }),
      });
    const events = (text: string) =>
      text
        .split('\n\n')
        .filter((block) => block.startsWith('event:'))
        .map((block) => block.split('\n')[0]);
    const plainEvents = events(await (await stream()).text());
    expect(plainEvents.length).toBeGreaterThan(2);
    await control('PUT', '/chaos', {
      seed: 1,
      rules: [
        { match: { method: 'GET', path: '/v1/tools' }, probability: 1, fault: { type: 'dribble', ms: 30 } },
        { match: { operationId: 'executeAgent' }, probability: 1, fault: { type: 'dribble', ms: 30 } },
      ],
    });
    const dribbled = await fetch(`${listener.url}/v1/tools`, { headers });
    expect(dribbled.status).toBe(200);
    expect(await dribbled.text()).toBe(plain);
    const dribbledStream = await stream();
    expect(dribbledStream.headers.get('content-type')).toContain('text/event-stream');
    expect(events(await dribbledStream.text())).toEqual(plainEvents);
    expect(server.journal.filter('executeAgent').at(-1)).toMatchObject({ fault: 'dribble', status: 200, chaos: { rule: 1 } });
  });

  it('a body that is not JSON answers 400', async () => {
    expect((await control('PUT', '/chaos', '{ nope')).status).toBe(400);
  });

  it("a session's chaos under /_oz/sessions/{id}/chaos is its own", async () => {
    const created = await control('POST', '/sessions', {});
    const { id, api_key: key } = created.body as { id: string; api_key: string };
    const doc = { seed: 1, rules: [{ probability: 1, fault: { type: 'error', code: 'internal_error' } }] };
    expect(await control('PUT', `/sessions/${id}/chaos`, doc)).toEqual({ status: 200, body: { chaos: doc } });
    expect((await echo(key)).status).toBe(500);
    expect((await echo()).status).toBe(200);
    expect((await control('GET', '/chaos')).body).toEqual({ chaos: null });
    expect((await control('GET', `/sessions/${id}/chaos`)).body).toEqual({ chaos: doc });
    await control('DELETE', `/sessions/${id}/chaos`);
    expect((await echo(key)).status).toBe(200);
    await control('DELETE', `/sessions/${id}`);
  });

  it('connectOzMock: chaos.set, get and clear, a RegExp path sent as its pathPattern', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    await mock.chaos.set({ seed: 5, rules: [{ match: { path: /^\/v1\/tools\/echo\// }, probability: 1, fault: { type: 'error', code: 'internal_error' } }] });
    expect(await mock.chaos.get()).toEqual({
      seed: 5,
      rules: [{ match: { pathPattern: '^\\/v1\\/tools\\/echo\\/' }, probability: 1, fault: { type: 'error', code: 'internal_error' } }],
    });
    expect((await echo()).status).toBe(500);
    await mock.chaos.clear();
    expect(await mock.chaos.get()).toBeNull();
    await expect(mock.chaos.set({ seed: 5, rules: [{ probability: -1, fault: { type: 'drop' } }] })).rejects.toThrow(
      /rules\[0\]\.probability must be a number from 0 to 1/,
    );
  });
});

describe('the MCP tools set_chaos, get_chaos, clear_chaos', () => {
  it('set, read and clear the rules; a bad document is a tool error naming the field', async () => {
    const client = new Client({ name: 'oz-mock-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${listener.url}/_oz/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, unknown> };
      const doc = { seed: 9, rules: [{ match: { operationId: 'executeTool' }, probability: 1, fault: { type: 'lose' } }] };
      expect((await call('set_chaos', doc)).structuredContent).toEqual({ chaos: doc });
      expect(server.chaos.get()).toEqual(doc);
      expect((await call('get_chaos')).structuredContent).toEqual({ chaos: doc });
      await expect(echo()).rejects.toThrow();
      const bad = await call('set_chaos', { seed: 9, rules: [{ probability: 7, fault: { type: 'lose' } }] });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('rules[0].probability must be a number from 0 to 1');
      await call('clear_chaos');
      expect(server.chaos.get()).toBeNull();
    } finally {
      await client.close();
    }
  });
});
