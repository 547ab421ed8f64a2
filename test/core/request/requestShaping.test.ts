// fetchOptions, defaultQuery, per-call query, the connector proxy's query string and the base URL check, on real
// HTTP against the scripted server.
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { Oz, OzUsageError, type FetchLike } from '../../../src/index.js';
import { envelope, KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite();
const ok = () => ({ body: envelope('ok') });

describe('fetchOptions', () => {
  it('reaches every fetch of the client (retries too), a call adds its own, and the SDK keeps method, headers, body and signal', async () => {
    const inits: RequestInit[] = [];
    const recording: FetchLike = (input, init) => {
      inits.push(init ?? {});
      return globalThis.fetch(input, init);
    };
    server.answer({ status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'internal_error', message: 'x' } } }, ok(), ok());
    const client = new Oz({
      baseURL: server.url,
      apiKey: KEY,
      logLevel: 'off',
      fetch: recording,
      fetchOptions: { keepalive: true, method: 'DELETE', headers: { 'x-lost': '1' }, priority: 'high' } as never,
    });
    await client.tools.execute('echo', { text: 'x' });
    await client.tools.get('echo', { fetchOptions: { priority: 'low', cache: 'no-store' } });
    expect(inits).toHaveLength(3);
    for (const init of inits.slice(0, 2)) {
      expect(init).toMatchObject({ keepalive: true, priority: 'high', method: 'POST' });
      expect(init.signal).toBeInstanceOf(AbortSignal);
    }
    expect(inits[2]).toMatchObject({ keepalive: true, priority: 'low', cache: 'no-store', method: 'GET' });
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
    expect(server.requests.every((r) => r.headers['x-lost'] === undefined)).toBe(true);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ text: 'x' });
  });

  it("passes undici's dispatcher to Node's fetch: the call goes through the given Agent", async () => {
    const connects: string[] = [];
    const agent = new Agent({ connect: { timeout: 5_000 } }).compose((dispatch) => (options, handler) => {
      connects.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    server.answer(ok());
    const client = new Oz({ baseURL: server.url, apiKey: KEY, fetchOptions: { dispatcher: agent } });
    await client.tools.get('echo');
    expect(connects).toEqual(['GET /v1/tools/echo']);
  });
});

describe('query parameters', () => {
  it('adds defaultQuery to every call; a call’s query overrides it, and an operation’s own parameters win', async () => {
    server.fallback = () => ({ body: { data: [], next_cursor: null } });
    const client = new Oz({ baseURL: server.url, apiKey: KEY, defaultQuery: { tenant: 'acme', region: 'eu', skip: undefined } });
    await client.tools.get('echo');
    await client.tools.get('echo', { query: { region: 'us', debug: true, gone: null } });
    await client.tools.list({ limit: 5 }, { query: { limit: 99, tenant: 'globex' } });
    const queries = server.requests.map((r) => Object.fromEntries(r.query));
    expect(queries[0]).toEqual({ tenant: 'acme', region: 'eu' });
    expect(queries[1]).toEqual({ tenant: 'acme', region: 'us', debug: 'true' });
    expect(queries[2]).toEqual({ tenant: 'globex', region: 'eu', limit: '5' });
  });

  it('sends the proxy’s query option upstream, and a query string inside its path as a query, not %3F', async () => {
    server.fallback = () => ({ body: { status: 200, body: {} } });
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    await client.proxy.get('crm', 'contacts/42', { query: { x: 1, fields: 'name,email' } });
    await client.proxy.get('crm', 'contacts/42?x=1&y=a%20b', { query: { y: 'c', z: true } });
    await client.proxy.post('crm', 'search/a b?', { q: 1 });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/proxy/crm/contacts/42?x=1&fields=name%2Cemail',
      '/v1/proxy/crm/contacts/42?x=1&y=c&z=true',
      '/v1/proxy/crm/search/a%20b',
    ]);
  });

  it('refuses a proxy path that is only a query string', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    const error = await rejectionOf(client.proxy.get('crm', '?x=1'));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/Missing path parameter "path" of proxyGet \(only a query string was given\)/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('baseURL', () => {
  it('refuses a base URL ending in /v1 (the openai habit) at construction, saying what to pass', () => {
    for (const [given, root] of [
      ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010'],
      ['https://oz.example.com/api/v1/', 'https://oz.example.com/api'],
    ] as const) {
      const attempt = () => new Oz({ baseURL: given, apiKey: KEY });
      expect(attempt).toThrow(OzUsageError);
      expect(attempt).toThrow(`baseURL "${given}" ends in /v1, but every path of the API already starts with /v1/: pass "${root}" instead.`);
    }
  });

  it('checks OZ_BASE_URL and a per-call baseURL the same way, and refuses what is not an http(s) URL', async () => {
    const saved = process.env.OZ_BASE_URL;
    process.env.OZ_BASE_URL = 'http://localhost:4010/v1';
    try {
      expect(() => new Oz({ apiKey: KEY })).toThrow(/^OZ_BASE_URL "http:\/\/localhost:4010\/v1" ends in \/v1.*pass "http:\/\/localhost:4010" instead/);
    } finally {
      if (saved === undefined) delete process.env.OZ_BASE_URL;
      else process.env.OZ_BASE_URL = saved;
    }
    expect(() => new Oz({ baseURL: 'localhost:4010', apiKey: KEY })).toThrow(/must be an http:\/\/ or https:\/\/ address/);
    expect(() => new Oz({ baseURL: 'not a url', apiKey: KEY })).toThrow(/is not an absolute URL/);
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    const error = await rejectionOf(client.tools.get('echo', { baseURL: `${server.url}/v1` }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(0);
  });
});
