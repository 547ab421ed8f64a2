import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Http401Error, LegacyKeyError, Oz, UnauthorizedError } from '../../../src/index.js';
import { envelope, KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: envelope('ok') }));

const unauthorized = {
  status: 401,
  headers: { 'x-error-code': 'unauthorized', 'x-request-id': 'req_401' },
  body: { error: { code: 'unauthorized', message: 'This key is not accepted here.' } },
};

describe('auth', () => {
  it("sends the client's key as a bearer, as given", async () => {
    await new Oz({ baseURL: server.url, apiKey: KEY }).tools.execute('echo', { text: 'x' });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('a per-call key wins for that call only', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    await client.tools.get('echo', { apiKey: 'ozk_OtherKey' });
    await client.tools.get('echo');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer ozk_OtherKey', `Bearer ${KEY}`]);
  });

  it('x-api-key is used on execution planes and MCP, bearer on models, companies and the proxy', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY, authHeader: 'x-api-key' });
    await client.tools.execute('echo', { text: 'x' });
    await client.mcp.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await client.models.list();
    await client.embeddings.create({ model: 'oz-embed', input: 'x' });
    await client.companies.items.get('acme', 'itm_1');
    await client.proxy.get('crm', 'contacts/1');
    const seen = server.requests.map((r) => [r.path, r.headers['x-api-key'] ?? null, r.headers.authorization ?? null]);
    expect(seen).toEqual([
      ['/v1/tools/echo/execute', KEY, null],
      ['/v1/mcp', KEY, null],
      ['/v1/models', null, `Bearer ${KEY}`],
      ['/v1/embeddings', null, `Bearer ${KEY}`],
      ['/v1/companies/acme/items/itm_1', null, `Bearer ${KEY}`],
      ['/v1/proxy/crm/contacts/1', null, `Bearer ${KEY}`],
    ]);
  });

  it('authHeader can be chosen per call', async () => {
    await new Oz({ baseURL: server.url, apiKey: KEY }).tools.get('echo', { authHeader: 'x-api-key' });
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('sends no key where the operation needs none', async () => {
    await new Oz({ baseURL: server.url, apiKey: KEY }).meta.health();
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('sends legacy keys as given on their own plane', async () => {
    await new Oz({ baseURL: server.url, apiKey: 'sk-mdl-abc' }).models.list();
    await new Oz({ baseURL: server.url, apiKey: 'sk-prx-abc' }).proxy.post('crm', 'x', { a: 1 });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-mdl-abc', 'Bearer sk-prx-abc']);
  });

  it.each([
    ['sk-mdl-LegacyModels123', 'models', 'tools', (c: Oz) => c.tools.execute('echo', { text: 'x' })],
    ['sk-prx-LegacyProxy123', 'proxy', 'companies', (c: Oz) => c.companies.items.get('acme', 'itm_1')],
    ['sk-mdl-LegacyModels123', 'models', 'proxy', (c: Oz) => c.proxy.get('crm', 'x')],
    ['sk-prx-LegacyProxy123', 'proxy', 'models', (c: Oz) => c.models.list()],
  ])('a legacy key %s (opens %s) answered 401 on %s throws LegacyKeyError saying why, without the key', async (key, opens, _plane, call) => {
    server.answer(unauthorized);
    const error = await rejectionOf(call(new Oz({ baseURL: server.url, apiKey: key })));
    expect(error).toBeInstanceOf(LegacyKeyError);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toBeInstanceOf(Http401Error);
    const e = error as LegacyKeyError;
    expect(e).toMatchObject({ status: 401, code: 'unauthorized', requestId: 'req_401', keyPlane: opens });
    expect(e.message).toContain(`only the ${opens} plane`);
    expect(e.message).toContain('ozk_');
    expect(e.message).not.toContain(key);
    expect(server.requests).toHaveLength(1);
  });

  it('a 401 to a legacy key on its own plane stays a plain UnauthorizedError', async () => {
    server.answer(unauthorized);
    const error = await rejectionOf(new Oz({ baseURL: server.url, apiKey: 'sk-mdl-revoked' }).models.list());
    expect(Object.getPrototypeOf(error)).toBe(UnauthorizedError.prototype);
  });

  it('a 401 to a platform key is a plain UnauthorizedError', async () => {
    server.answer(unauthorized);
    const error = await rejectionOf(new Oz({ baseURL: server.url, apiKey: KEY }).tools.get('echo'));
    expect(Object.getPrototypeOf(error)).toBe(UnauthorizedError.prototype);
  });
});
