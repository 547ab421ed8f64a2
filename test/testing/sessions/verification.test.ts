/** Verification: journal filters by account, header and body (in process and over HTTP), hits, and unused(). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectOzMock, createOzServer, type OzListener, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_VeriVeriVeriVeriVeriVeriVeriVeri';
let server: OzServer;
let listener: OzListener;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN });
  listener = await server.listen();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function echo(key: string, text: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${listener.url}/v1/tools/echo/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text, extra: { deep: [1, 2] } }),
  });
  await res.text();
}

describe('journal filters', () => {
  beforeEach(async () => {
    await echo(server.apiKey, 'one', { 'x-trace-id': 'trace-one' });
    await echo(server.keys.otherApiKey, 'two');
    await echo('ozk_NoSuchKeyNoSuchKeyNoSuchKey00', 'three');
  });

  it('in process: account, header (name:value), body subset', () => {
    expect(server.journal.filter({ account: 'demo' }).map((e) => JSON.parse(e.body!).text)).toEqual(['one']);
    expect(server.journal.filter({ account: 'other' }).map((e) => JSON.parse(e.body!).text)).toEqual(['two']);
    expect(server.journal.last({ operationId: 'executeTool' })?.account).toBeNull(); // an unknown key
    expect(server.journal.count({ header: 'X-Trace-Id:trace-one' })).toBe(1);
    expect(server.journal.count({ header: 'x-trace-id:trace-two' })).toBe(0);
    expect(server.journal.count({ body: { text: 'two', extra: { deep: [1, 2] } } })).toBe(1);
    expect(server.journal.count({ body: { extra: { deep: [1] } } })).toBe(0);
    expect(() => server.journal.filter({ header: 'no-colon' })).toThrow(/name:value/);
    expect(() => server.journal.filter({ body: [] as never })).toThrow(/body must be an object/);
  });

  it('over HTTP and through connectOzMock', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    expect((await mock.journal.filter({ account: 'other' })).map((e) => e.account)).toEqual(['other']);
    expect(await mock.journal.count({ header: 'x-trace-id:trace-one' })).toBe(1);
    expect(await mock.journal.count({ body: { text: 'two' } })).toBe(1);
    // The request with an unknown key was refused before its body was read: no body is journaled to match.
    expect(await mock.journal.count({ body: { text: 'three' } })).toBe(0);
    const bad = await fetch(`${listener.url}/_oz/journal?body=notjson`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bad.status).toBe(422);
    const badHeader = await fetch(`${listener.url}/_oz/journal?header=nocolon`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await badHeader.json()) as { error: { message: string } }).error.message).toMatch(/name:value/);
  });
});

describe('hits and unused()', () => {
  it('in process: a fault and a stub that never fired are listed; once fired, they are not', async () => {
    const fault = server.faults.add({ operationId: 'executeTool', type: 'delay', ms: 0, times: 2 });
    const stub = server.stubs.add({ operationId: 'listTools', answer: { status: 200, body: { data: [], next_cursor: null } } });
    expect(server.unused()).toMatchObject({ faults: [{ id: fault.id, hits: 0, remaining: 2, type: 'delay' }], stubs: [{ id: stub.id, hits: 0 }] });
    await echo(server.apiKey, 'x');
    expect(fault.hits).toBe(1);
    expect(server.unused().faults).toEqual([]);
    await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(server.unused()).toEqual({ faults: [], stubs: [] });
  });

  it('over HTTP: GET /_oz/faults carries hits; GET /_oz/unused lists what never fired', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    await mock.faults.add({ operationId: 'executeTool', type: 'delay', ms: 0, times: 3 });
    await echo(server.apiKey, 'x');
    expect((await mock.faults.list()).map((f) => [f.hits, f.remaining])).toEqual([[1, 2]]);
    await mock.faults.add({ operationId: 'getExecution', type: 'drop' });
    expect((await mock.unused()).faults.map((f) => f.operationId)).toEqual(['getExecution']);
  });
});
