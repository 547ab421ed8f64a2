/**
 * Stubs: per-test answers for any operation, in process (server.stubs) and over HTTP (/_oz/stubs), checked
 * against openapi.json and rendered on the negotiated wire.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Oz } from '../../../src/index.js';
import { connectOzMock, createOzServer, OzMockError, type OzListener, type OzServer } from '../../../src/testing/index.js';

const TOKEN = 'ozadm_StubStubStubStubStubStubStubStub';
let server: OzServer;
let listener: OzListener;
let oz: Oz;

beforeAll(async () => {
  server = createOzServer({ adminToken: TOKEN, clock: { start: '2026-11-23T10:00:00Z', frozen: true } });
  listener = await server.listen();
  oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function anItem() {
  return oz.companies.items.create('acme', { building: 'lab', title: 'real' });
}

describe('in process: server.stubs.add', () => {
  it('answers an item of a given state, on every wire, only for the matching path parameter', async () => {
    const real = await anItem();
    const parked = { ...real, id: 'itm_parked', status: 'parked', step: 'parked', parked_reason: 'needs a human' } as const;
    const stub = server.stubs.add({
      operationId: 'getCompanyItem',
      match: { path: { campus: 'acme', id: 'itm_parked' } },
      answer: { status: 200, body: parked },
    });
    expect(await oz.companies.items.get('acme', 'itm_parked')).toMatchObject({ status: 'parked', parked_reason: 'needs a human' });
    expect((await oz.companies.items.get('acme', real.id)).status).toBe(real.status); // another id: the server's own answer
    const yaml = await server.fetch(`${server.url}/v1/companies/acme/items/itm_parked?format=yaml`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(yaml.headers.get('content-type')).toMatch(/yaml/);
    expect(await yaml.text()).toMatch(/parked_reason: needs a human/);
    const text = await server.fetch(`${server.url}/v1/companies/acme/items/itm_parked`, {
      headers: { authorization: `Bearer ${server.apiKey}`, accept: 'text/plain' },
    });
    expect(await text.text()).toMatch(/^status: parked$/m);
    expect(stub.hits).toBe(3);
    expect(stub.remaining).toBeNull();
  });

  it('answers a list page for n calls, then the server answers again', async () => {
    const real = await anItem();
    const page = {
      data: [
        { ...real, id: 'itm_a' },
        { ...real, id: 'itm_b' },
      ],
      next_cursor: 'cur_next',
    };
    server.stubs.add({ operationId: 'listCompanyItems', match: { query: { building: 'lab' } }, answer: { status: 200, body: page }, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await server.fetch(`${server.url}/v1/companies/acme/items?building=lab`, { headers: { authorization: `Bearer ${server.apiKey}` } });
      expect(((await res.json()) as { data: { id: string }[] }).data.map((x) => x.id)).toEqual(['itm_a', 'itm_b']);
    }
    const third = await server.fetch(`${server.url}/v1/companies/acme/items?building=lab`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(((await third.json()) as { data: { id: string }[] }).data.map((x) => x.id)).toEqual([real.id]);
    expect(server.stubs.list()).toEqual([]);
  });

  it('answers an execution record from a function with the parsed request, and falls through when it returns nothing', async () => {
    const run = await oz.tools.execute('echo', { text: 'x' });
    const seen: unknown[] = [];
    server.stubs.add({
      operationId: 'getExecution',
      respond: (request) => {
        seen.push({ path: request.path, account: request.account, query: request.query });
        if (request.path.id !== 'exe_fake') return undefined;
        return {
          status: 200,
          body: {
            ...server.getExecution(run.execution_id)!,
            id: 'exe_fake',
            status: 'failed',
            content: null,
            error: { code: 'upstream_error', message: 'down' },
          },
        } as const;
      },
    });
    expect(await oz.executions.get('exe_fake')).toMatchObject({ id: 'exe_fake', status: 'failed' });
    expect((await oz.executions.get(run.execution_id)).status).toBe('succeeded'); // fell through
    expect(seen).toEqual([
      { path: { id: 'exe_fake' }, account: 'demo', query: {} },
      { path: { id: run.execution_id }, account: 'demo', query: {} },
    ]);
    // markdown renders an execution as the server does: its error, then the footer naming it
    const md = await server.fetch(`${server.url}/v1/executions/exe_fake?format=markdown`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(await md.text()).toMatch(/# Error: upstream_error[\s\S]*execution_id: exe_fake/);
  });

  it('matches on body subset and account; an error answer carries X-Error-Code and its headers', async () => {
    server.stubs.add({
      operationId: 'executeTool',
      match: { account: 'demo', body: { text: 'boom' } },
      answer: { status: 429, body: { error: { code: 'rate_limited', message: 'slow down' } }, headers: { 'retry-after': '7' } },
    });
    const res = await server.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'boom' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-error-code')).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('7');
    expect((await oz.tools.execute('echo', { text: 'fine' })).content).toBe('fine');
    const other = await server.fetch(`${server.url}/v1/tools/echo/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.otherApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'boom' }),
    });
    expect(other.status).toBe(200);
  });

  it('refuses an answer openapi.json does not allow (422 naming the path) unless unchecked, and bad stubs with a TypeError', async () => {
    const real = await anItem();
    let err: unknown;
    try {
      // @ts-expect-error 'sleeping' is not a status of an Item: a compile error too
      server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 200, body: { ...real, status: 'sleeping' } } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OzMockError);
    expect(err).toMatchObject({ status: 422, code: 'invalid_params', message: expect.stringContaining('answer.body.status') });
    // @ts-expect-error getCompanyItem never answers 418: a compile error too
    expect(() => server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 418, body: {} } })).toThrow(/never answers 418/);
    expect(() => server.stubs.add({ operationId: 'nope', answer: { status: 200 } } as never)).toThrow(TypeError);
    expect(() => server.stubs.add({ operationId: 'getCompanyItem' } as never)).toThrow(/Give answer, answers or respond \(one of them\)/);
    expect(() => server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 200, body: {} as never }, times: 0 })).toThrow(/times/);
    expect(server.stubs.list()).toEqual([]);
    server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 200, body: { nonsense: true } }, unchecked: true });
    expect(await (await server.fetch(`${server.url}/v1/companies/acme/items/x`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()).toEqual({
      nonsense: true,
    });
  });

  it('a respond function answering what openapi.json forbids is a 500 naming the field', async () => {
    // @ts-expect-error a list's data is an array: a compile error too
    server.stubs.add({ operationId: 'listTools', respond: () => ({ status: 200, body: { data: 'not a list' } }) });
    const res = await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/answer\.body/);
  });

  it('reset clears the stubs', async () => {
    server.stubs.add({ operationId: 'listTools', answer: { status: 200, body: { data: [], next_cursor: null } } });
    server.reset();
    expect(server.stubs.list()).toEqual([]);
  });
});

describe('over HTTP: /_oz/stubs', () => {
  async function ozc(method: string, path: string, body?: unknown) {
    const res = await fetch(`${listener.url}/_oz${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  const api = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${listener.url}${path}`, { headers: { authorization: `Bearer ${server.apiKey}`, ...headers } });

  it('stubs an item, a list page and an execution record; lists them with hits; deletes them', async () => {
    const real = await anItem();
    const run = await oz.tools.execute('echo', { text: 'x' });
    const item = await ozc('POST', '/stubs', {
      operationId: 'getCompanyItem',
      match: { path: { id: 'itm_stub' } },
      answer: { status: 200, body: { ...real, id: 'itm_stub', status: 'failed' } },
      times: 1,
    });
    expect(item.status).toBe(201);
    expect(item.body).toMatchObject({ id: expect.stringMatching(/^stb_/), hits: 0, remaining: 1, times: 1 });
    await ozc('POST', '/stubs', { operationId: 'listCompanyItems', answer: { status: 200, body: { data: [], next_cursor: null } } });
    await ozc('POST', '/stubs', {
      operationId: 'getExecution',
      answer: { status: 200, body: { ...server.getExecution(run.execution_id), content: 'stubbed' } },
    });

    expect(((await (await api('/v1/companies/acme/items/itm_stub')).json()) as { status: string }).status).toBe('failed');
    expect((await api('/v1/companies/acme/items/itm_stub')).status).toBe(404); // used up
    expect(await (await api('/v1/companies/acme/items', { accept: 'application/yaml' })).text()).toBe('data: []\nnext_cursor: null\n');
    expect(await (await api(`/v1/executions/${run.execution_id}?format=text`)).text()).toBe('stubbed');

    const listed = await ozc('GET', '/stubs');
    expect(listed.body.data.map((s: { operationId: string; hits: number }) => [s.operationId, s.hits])).toEqual([
      ['listCompanyItems', 1],
      ['getExecution', 1],
    ]);
    expect((await ozc('DELETE', `/stubs/${listed.body.data[0].id}`)).status).toBe(200);
    expect((await ozc('DELETE', `/stubs/${listed.body.data[0].id}`)).body.error.code).toBe('stub_not_found');
    expect((await ozc('DELETE', '/stubs')).status).toBe(200);
    expect((await ozc('GET', '/stubs')).body.data).toEqual([]);
  });

  it('refuses an invalid answer with 422 naming the path, and a bad stub with 422', async () => {
    const bad = await ozc('POST', '/stubs', { operationId: 'listCompanyItems', answer: { status: 200, body: { data: [{ id: 1 }], next_cursor: null } } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('invalid_params');
    expect(bad.body.error.message).toMatch(/answer\.body\.data\[0\]/);
    expect((await ozc('POST', '/stubs', { operationId: 'nope', answer: { status: 200 } })).body.error.message).toMatch(/operationId names no operation/);
    expect((await ozc('POST', '/stubs', { operationId: 'listTools', answer: { status: 200 }, colour: 1 })).body.error.message).toMatch(/colour is not a field/);
    expect((await ozc('POST', '/stubs', { operationId: 'listTools', answer: { status: 200, body: 'x' }, unchecked: true })).status).toBe(201);
    expect((await ozc('GET', '/stubs')).body.data).toHaveLength(1);
  });

  it('connectOzMock: stubs, and unused() lists what never fired', async () => {
    const mock = connectOzMock({ url: listener.url, adminToken: TOKEN });
    const stub = await mock.stubs.add({ operationId: 'listTools', answer: { status: 200, body: { data: [], next_cursor: null } } });
    await mock.faults.add({ operationId: 'getExecution', type: 'error', status: 500, code: 'internal_error' });
    expect((await mock.unused()).stubs.map((s) => s.id)).toEqual([stub.id]);
    expect((await mock.unused()).faults).toHaveLength(1);
    await api('/v1/tools');
    expect((await mock.unused()).stubs).toEqual([]);
    await stub.cancel();
    await stub.cancel();
    expect(await mock.stubs.list()).toEqual([]);
  });
});
