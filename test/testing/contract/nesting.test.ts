/**
 * Nesting (the contract's "Money and trust at the edges"): a request body, fixture, stub, fault or state document
 * nested deeper than 128 levels answers 400 `invalid_json` naming the bound, before anything is written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OzMockError } from '../../../src/testing/contract/errors.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../support/serverCall.js';

const TOKEN = `ozadm_${'n'.repeat(32)}`;
let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Objects `{ a: { a: ... } }` nested `levels` deep (1 is `{ a: 0 }`). */
function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The same as YAML flow text. */
function nestedYaml(levels: number): string {
  return `${'{a: '.repeat(levels)}0${'}'.repeat(levels)}`;
}

const schedule = (input: unknown) => ({ name: 'deep', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, input });

function expectTooDeep(status: number, body: unknown, what: string): void {
  expect(status).toBe(400);
  expect((body as ErrorBody).error.code).toBe('invalid_json');
  expect((body as ErrorBody).error.message).toBe(`${what} is nested deeper than 128 levels of objects and arrays; at most 128 are accepted.`);
}

describe('a request body nested deeper than 128 levels', () => {
  it.each([
    ['JSON, 2,000 levels', JSON.stringify(schedule(nested(2000))), 'application/json'],
    ['JSON, 128 levels', JSON.stringify(schedule(nested(128))), 'application/json'],
    ['YAML, 2,000 levels', `name: deep\ncron: "0 3 * * *"\ntarget: {kind: tool, name: echo}\ninput: ${nestedYaml(2000)}\n`, 'application/yaml'],
    ['YAML, 128 levels', `name: deep\ncron: "0 3 * * *"\ntarget: {kind: tool, name: echo}\ninput: ${nestedYaml(128)}\n`, 'application/yaml'],
  ])('%s: 400 invalid_json, nothing stored; the same trace id then writes a good body', async (_name, body, contentType) => {
    server = createTestServer({ adminToken: TOKEN });
    const headers = { 'content-type': contentType, 'x-trace-id': 'deep-1' };
    const res = await callJson(server, 'POST', '/v1/schedules?format=json', { body, headers });
    expectTooDeep(res.status, res.body, 'The request body');
    const list = await callJson<{ data: unknown[] }>(server, 'GET', '/v1/schedules');
    expect(list.body.data).toEqual([]);
    const state = await call(server, 'GET', '/_oz/state', { key: TOKEN });
    expect(state.status).toBe(200);
    const good = await call(server, 'POST', '/v1/schedules', { body: schedule({ ok: true }), headers: { 'x-trace-id': 'deep-1' } });
    expect(good.status).toBe(201);
  });

  it('127 levels inside the body (128 in all) are accepted, stored, exported and imported', async () => {
    server = createTestServer({ adminToken: TOKEN });
    const created = await callJson<{ id: string; input: unknown }>(server, 'POST', '/v1/schedules', { body: schedule(nested(127)) });
    expect(created.status).toBe(201);
    const exported = await callJson(server, 'GET', '/_oz/state', { key: TOKEN });
    expect(exported.status).toBe(200);
    expect((await call(server, 'PUT', '/_oz/state', { key: TOKEN, body: exported.body })).status).toBe(200);
    const read = await callJson<{ input: unknown }>(server, 'GET', `/v1/schedules/${created.body.id}`);
    expect(read.body.input).toEqual(nested(127));
  });

  it('an MCP message too', async () => {
    server = createTestServer();
    const res = await callJson(server, 'POST', '/v1/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: nested(200) } },
    });
    expectTooDeep(res.status, res.body, 'The request body');
  });
});

describe('a control-plane document nested deeper than 128 levels', () => {
  it.each([
    ['POST /_oz/stubs', '/_oz/stubs', { operationId: 'listTools', answer: { status: 200, body: nested(300) } }, 'application/json'],
    ['POST /_oz/faults', '/_oz/faults', { operationId: 'createSchedule', type: 'drop', body: nested(300) }, 'application/json'],
    ['POST /_oz/fixtures (JSON)', '/_oz/fixtures', { tools: [{ name: 'deep', answer: nested(300) }] }, 'application/json'],
    ['POST /_oz/fixtures (YAML)', '/_oz/fixtures', `tools:\n  - name: deep\n    answer: ${nestedYaml(300)}\n`, 'application/yaml'],
  ])('%s: 400 invalid_json, nothing added', async (_name, path, body, contentType) => {
    server = createTestServer({ adminToken: TOKEN });
    const res = await callJson(server, 'POST', path, { key: TOKEN, body, headers: { 'content-type': contentType } });
    expect(res.status).toBe(400);
    expect((res.body as unknown as ErrorBody).error.code).toBe('invalid_json');
    expect((res.body as unknown as ErrorBody).error.message).toContain('nested deeper than 128 levels');
    expect(server.stubs.list()).toEqual([]);
    expect(server.unused().faults).toEqual([]);
    expect((await callJson<{ data: Array<{ name: string }> }>(server, 'GET', '/v1/tools')).body.data.map((t) => t.name)).not.toContain('deep');
  });

  it('PUT /_oz/state: a document nested deeper than its bound is refused, the state unchanged', async () => {
    server = createTestServer({ adminToken: TOKEN });
    const doc = server.exportState();
    const deep = { ...doc, schedules: [{ ...(doc.schedules[0] ?? {}), input: nested(300) }] };
    const res = await callJson(server, 'PUT', '/_oz/state', { key: TOKEN, body: deep });
    expect(res.status).toBe(400);
    expect((res.body as unknown as ErrorBody).error.message).toBe(
      'The state document is nested deeper than 136 levels of objects and arrays; at most 136 are accepted.',
    );
    expect(server.exportState().schedules).toEqual(doc.schedules);
  });

  it('in process: stubs.add, faults.add, loadFixtures and importState throw the typed error', () => {
    server = createTestServer();
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err;
      }
      return null;
    };
    for (const [what, f] of [
      ['The stub', () => server!.stubs.add({ operationId: 'listTools', answer: { status: 200, body: nested(300) as never } })],
      ['The fault', () => server!.faults.add({ operationId: 'listTools', type: 'drop', body: nested(300) as Record<string, unknown> })],
      ['The fixture document', () => server!.loadFixtures({ tools: [{ name: 'deep', answer: nested(300) as string }] })],
      ['The state document', () => server!.importState({ ...server!.exportState(), executions: [nested(300) as never] })],
    ] as const) {
      const err = thrown(f);
      expect(err, what).toBeInstanceOf(OzMockError);
      expect((err as OzMockError).status, what).toBe(400);
      expect((err as OzMockError).message, what).toMatch(new RegExp(`^${what} is nested deeper than 1[23][68] levels`));
    }
  });

  it('a cycle given in process ends the walk too', () => {
    server = createTestServer();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => server!.stubs.add({ operationId: 'listTools', answer: { status: 200, body: cycle as never } })).toThrow(/nested deeper than 128 levels/);
  });
});
