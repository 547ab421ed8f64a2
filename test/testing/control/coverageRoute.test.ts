/**
 * The control plane's coverage: `GET /_oz/coverage` (and a session's), `POST /_oz/reset` with `{ coverage: 'keep' }`,
 * their errors, and the MCP tool `read_coverage` (its answer checked by the official client against its schema).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectOzMock, createOzServer, expectCoverage, OzCoverageError, type OzCoverageReport, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_CovRouCovRouCovRouCovRouCovRouCo';
let server: OzServer;
let url: string;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN });
  url = (await server.listen()).url;
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}/_oz${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}

async function listTools(apiKey = server.apiKey): Promise<void> {
  expect((await fetch(`${url}/v1/tools`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
}

const listToolsCount = (report: OzCoverageReport) =>
  report.operations.find((o) => o.operationId === 'listTools')!.responses.find((r) => r.status === 200)!.count;

describe('GET /_oz/coverage', () => {
  it("answers the server's report, and under /_oz/sessions/{id}/ the session's", async () => {
    const session = server.session();
    await listTools();
    await listTools(session.apiKey);
    const whole = await control('GET', '/coverage');
    expect(whole).toEqual({ status: 200, json: server.coverage() });
    expect(listToolsCount(whole.json)).toBe(2);
    const own = await control('GET', `/sessions/${session.id}/coverage`);
    expect(own).toEqual({ status: 200, json: session.coverage() });
    expect(listToolsCount(own.json)).toBe(1);
    await session.close();
  });

  it('refuses a query parameter (422) and a request without the admin token (401)', async () => {
    expect(await control('GET', '/coverage?format=html')).toMatchObject({
      status: 422,
      json: { error: { code: 'invalid_params', message: 'format is not a parameter here (none are: the form follows Accept).' } },
    });
    expect((await fetch(`${url}/_oz/coverage`)).status).toBe(401);
  });
});

describe('POST /_oz/reset', () => {
  it('clears the counts, or keeps them with { coverage: "keep" }', async () => {
    await listTools();
    expect(await control('POST', '/reset', { coverage: 'keep' })).toEqual({ status: 200, json: { ok: true } });
    expect(listToolsCount(server.coverage())).toBe(1);
    expect(await control('POST', '/reset')).toEqual({ status: 200, json: { ok: true } });
    expect(listToolsCount(server.coverage())).toBe(0);
  });

  it('refuses a bad coverage value or an unknown field with 422 naming it, and resets nothing', async () => {
    await listTools();
    expect(await control('POST', '/reset', { coverage: 'forget' })).toMatchObject({
      status: 422,
      json: { error: { code: 'invalid_params', message: 'reset(): coverage must be "keep" or "clear", not "forget".' } },
    });
    expect(await control('POST', '/reset', { journal: 'keep' })).toMatchObject({
      status: 422,
      json: { error: { code: 'invalid_params', message: 'journal is not a field here (known: coverage).' } },
    });
    expect(listToolsCount(server.coverage())).toBe(1);
  });
});

describe('the MCP tool read_coverage', () => {
  it('answers the report as JSON text and structuredContent', async () => {
    await listTools();
    const client = new Client({ name: 'oz-mock-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/_oz/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const result = await client.callTool({ name: 'read_coverage', arguments: {} });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual(server.coverage());
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(server.coverage());
    } finally {
      await client.close();
    }
  });
});

describe('connectOzMock', () => {
  it('reads the coverage, keeps it over a reset, and a gate holds the report it read', async () => {
    const mock = connectOzMock({ url, adminToken: TOKEN });
    await listTools();
    expect(await mock.coverage()).toEqual(server.coverage());
    await mock.reset({ coverage: 'keep' });
    expect(listToolsCount(await mock.coverage())).toBe(1);
    expect(() => expectCoverage(mock.coverage() as never, { require: ['listTools 200'] })).toThrow(
      new TypeError('expectCoverage() takes a report, not a promise of one: await it first (expectCoverage(await mock.coverage(), ...))'),
    );
    expect(() => expectCoverage(server, { require: ['listTools 200'] })).not.toThrow();
    const report = await mock.coverage();
    expect(() => expectCoverage(report, { require: ['listTools 200', 'getTool 404 tool_not_found'] })).toThrow(OzCoverageError);
    await mock.reset();
    expect(listToolsCount(await mock.coverage())).toBe(0);
    expect((await mock.journal.filter('listTools')).length).toBe(0);
  });
});
