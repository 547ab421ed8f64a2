/** Near misses of unused stubs and faults, and journal verification, in process and over HTTP. */
import { describe, expect, it } from 'vitest';
import { Oz } from '../../../src/index.js';
import { connectOzMock, OzMockError, OzVerificationError, type OzServer } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();

const getItem = (server: OzServer, id: string, baseURL = server.url) =>
  new Oz({ apiKey: server.apiKey, baseURL, ...(baseURL === server.url ? { fetch: server.fetch } : {}), maxRetries: 0 }).companies.items
    .get('acme', id)
    .catch(() => undefined);

describe('near misses of a stub that never fired', () => {
  it('in process: a stub on path.id itm_x hit with itm_y names path.id', async () => {
    const server = servers.create();
    server.stubs.add({
      operationId: 'getCompanyItem',
      match: { path: { id: 'itm_x' } },
      answer: { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } },
    });
    await getItem(server, 'itm_y');
    const [stub] = server.unused().stubs;
    expect(stub!.nearMisses).toHaveLength(1);
    expect(stub!.nearMisses[0]).toMatchObject({ operationId: 'getCompanyItem', method: 'GET', path: '/v1/companies/acme/items/itm_y', status: 404 });
    expect(stub!.nearMisses[0]!.differences).toEqual([{ path: 'path.id', expected: 'itm_x', actual: 'itm_y' }]);
  });

  it('over HTTP: GET /_oz/unused lists the same near miss', async () => {
    const server = servers.create();
    const listener = await server.listen();
    const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
    await mock.stubs.add({
      operationId: 'getCompanyItem',
      match: { path: { id: 'itm_x' } },
      answer: { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } },
    });
    await getItem(server, 'itm_y', listener.url);
    const unused = await mock.unused();
    expect(unused.stubs[0]!.nearMisses[0]!.differences).toEqual([{ path: 'path.id', expected: 'itm_x', actual: 'itm_y' }]);
  });

  it('lists at most three, closest first, and none from another operation', async () => {
    const server = servers.create();
    server.stubs.add({
      operationId: 'getCompanyItem',
      match: { path: { campus: 'acme', id: 'itm_x' }, account: 'demo' },
      answer: { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } },
    });
    const call = (campus: string, id: string) =>
      server.fetch(`${server.url}/v1/companies/${campus}/items/${id}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    await call('globex', 'itm_a');
    await call('globex', 'itm_b');
    await call('acme', 'itm_c');
    await call('globex', 'itm_d');
    await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const misses = server.unused().stubs[0]!.nearMisses;
    expect(misses.map((m) => m.path)).toEqual(['/v1/companies/acme/items/itm_c', '/v1/companies/globex/items/itm_d', '/v1/companies/globex/items/itm_b']);
    expect(misses[1]!.differences.map((d) => d.path)).toEqual(['path.campus', 'path.id']);
  });

  it('a fault that never fired names the body field that differed; a used one is not listed', async () => {
    const server = servers.create();
    server.faults.add({ operationId: 'executeTool', body: { text: 'a' }, type: 'error', status: 503, code: 'upstream_error' });
    const used = server.faults.add({ operationId: 'listTools', type: 'delay', ms: 0 });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, maxRetries: 0 });
    await oz.tools.execute('echo', { text: 'b' });
    await oz.tools.list();
    expect(used.hits).toBe(1);
    const { faults } = server.unused();
    expect(faults).toHaveLength(1);
    expect(faults[0]!.nearMisses[0]!.differences).toEqual([{ path: 'body.text', expected: 'a', actual: 'b' }]);
  });

  it('a stub with no request near it has no near misses', () => {
    const server = servers.create();
    server.stubs.add({ operationId: 'getCompanyItem', answer: { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } } });
    expect(server.unused().stubs[0]!.nearMisses).toEqual([]);
  });
});

describe('journal.verify', () => {
  it('in process: passes on a match, throws OzVerificationError naming the closest entry and its first differing field', async () => {
    const server = servers.create();
    await getItem(server, 'itm_y');
    server.journal.verify({ operationId: 'getCompanyItem' });
    server.journal.verify('getCompanyItem', { times: 1 });
    server.journal.verify('listTools', { times: 0 });
    let thrown: unknown;
    try {
      server.journal.verify({ operationId: 'getCompanyItem', path: '/v1/companies/acme/items/itm_x' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OzVerificationError);
    const e = thrown as OzVerificationError;
    expect(e.count).toBe(0);
    expect(e.times).toBeNull();
    expect(e.message).toContain('Expected at least one request matching');
    expect(e.message).toContain('GET /v1/companies/acme/items/itm_y');
    expect(e.message).toContain('path expected "/v1/companies/acme/items/itm_x", got "/v1/companies/acme/items/itm_y"');
    expect(e.nearMisses[0]!.differences).toEqual([{ path: 'path', expected: '/v1/companies/acme/items/itm_x', actual: '/v1/companies/acme/items/itm_y' }]);
    expect(() => server.journal.verify('getCompanyItem', { times: 2 })).toThrow(/Expected 2 requests matching .*, found 1/);
    expect(() => server.journal.verify('getCompanyItem', { times: -1 })).toThrow(TypeError);
  });

  it('over HTTP: POST /_oz/journal/verify answers 200, or 422 verification_failed with the same near misses', async () => {
    const server = servers.create();
    const listener = await server.listen();
    const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
    await getItem(server, 'itm_y', listener.url);
    await mock.journal.verify({ operationId: 'getCompanyItem', status: 404 }, { times: 1 });
    const failed = await mock.journal.verify({ operationId: 'getCompanyItem', status: 200 }).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(OzVerificationError);
    expect((failed as OzVerificationError).nearMisses[0]!.differences).toEqual([{ path: 'status', expected: 200, actual: 404 }]);
    expect((failed as OzVerificationError).message).toContain('status expected 200, got 404');
    const raw = await fetch(`${listener.url}/_oz/journal/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'getCompanyItem', times: 3 }),
    });
    expect(raw.status).toBe(422);
    expect(((await raw.json()) as { error: Record<string, unknown> }).error).toMatchObject({ code: 'verification_failed', count: 1, times: 3 });
    await expect(mock.journal.verify({ operationId: 'noSuchOperation' as never })).rejects.toBeInstanceOf(OzMockError);
    await expect(mock.journal.verify('getCompanyItem', { times: 1.5 })).rejects.toMatchObject({ status: 422, code: 'invalid_params' });
  });
});
