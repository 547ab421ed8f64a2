import { afterEach, describe, expect, it, vi } from 'vitest';
import { Oz, OzUsageError } from '../../../src/index.js';
import { KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: { ok: true, content: 'x', execution_id: 'exe_1', request_id: 'req_1' } }));
const client = (options: ConstructorParameters<typeof Oz>[0] = {}) => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 0, ...options });

const BAD = [
  ['a CR LF (header injection)', 'abc\r\nx-injected: 1', /line break \(CR or LF\)/],
  ['a lone LF', 'abc\ndef', /line break/],
  ['a NUL', 'abc\0', /NUL character/],
  ['a character outside Latin-1', 'caf€', /outside Latin-1 \(U\+20AC\)/],
] as const;

describe('invalid header values are the usage error naming the header, nothing sent', () => {
  it.each(BAD)('idempotencyKey with %s', async (_, value, reason) => {
    const error = await rejectionOf(client().tools.execute('echo', { text: 'hi' }, { idempotencyKey: value }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-trace-id" \(from idempotencyKey\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it.each(BAD)('defaultHeaders with %s', async (_, value, reason) => {
    const error = await rejectionOf(client({ defaultHeaders: { 'x-team': value } }).tools.get('echo'));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-team" \(from defaultHeaders\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it.each(BAD)('per-call headers with %s', async (_, value, reason) => {
    const error = await rejectionOf(client().tools.get('echo', { headers: { 'x-team': value } }));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/"x-team" \(from headers\)/);
    expect((error as Error).message).toMatch(reason);
    expect(server.requests).toEqual([]);
  });

  it('an invalid header name (also one given to remove with null)', async () => {
    for (const headers of [{ 'x bad': 'v' }, { 'x:bad': null }] as Record<string, string | null>[]) {
      const error = await rejectionOf(client().tools.get('echo', { headers }));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toMatch(/is not a valid HTTP header name/);
    }
    expect(server.requests).toEqual([]);
  });

  it('an API key with a line break names apiKey and never prints the key', async () => {
    const secret = 'ozk_Secret0123456789abcdef\r\nx: y';
    for (const authHeader of ['bearer', 'x-api-key'] as const) {
      const error = await rejectionOf(client({ apiKey: secret, authHeader }).tools.get('echo'));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toMatch(/\(from apiKey\)/);
      expect((error as Error).message).not.toContain('Secret');
    }
    expect(server.requests).toEqual([]);
  });

  it('valid values (Latin-1 included) go out as given', async () => {
    await client({ defaultHeaders: { 'x-team': 'café' } }).tools.get('echo', { headers: { 'x-call': 'a b' }, idempotencyKey: 'k-1' });
    expect(server.requests[0]!.headers).toMatchObject({ 'x-call': 'a b', 'x-trace-id': 'k-1' });
    expect(Buffer.from(server.requests[0]!.headers['x-team'] as string, 'latin1').toString('latin1')).toBe('café');
  });
});

describe('header names are case-insensitive, values as fetch keeps them', () => {
  it('a call header replaces a default header of another case, and null removes one of another case', async () => {
    await client({ defaultHeaders: { 'X-Team': 'default', 'X-Tenant': 't1' } }).tools.get('echo', { headers: { 'x-TEAM': 'call', 'x-tenant': null } });
    const sent = server.requests[0]!.headers;
    expect(sent['x-team']).toBe('call');
    expect(sent).not.toHaveProperty('x-tenant');
  });

  it('an Accept of the caller (any case) is kept over the wire default', async () => {
    await client().tools.get('echo', { headers: { ACCEPT: 'application/json; q=1' } });
    expect(server.requests[0]!.headers.accept).toBe('application/json; q=1');
  });

  it('leading and trailing spaces and tabs of a value are dropped, as fetch drops them (the trace id a middleware sees too)', async () => {
    const seen: (string | undefined)[] = [];
    const middleware = [
      (request: Request, next: (request: Request) => Promise<Response>, context: { traceId: string | undefined }) => (
        seen.push(context.traceId),
        next(request)
      ),
    ];
    await client({ defaultHeaders: { 'x-team': ' \tsdk team\t ' }, middleware }).tools.execute('echo', { text: 'hi' }, { idempotencyKey: '  k-2 ' });
    expect(server.requests[0]!.headers).toMatchObject({ 'x-team': 'sdk team', 'x-trace-id': 'k-2' });
    expect(seen).toEqual(['k-2']);
  });
});

describe('what a fetch is handed as headers', () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = () =>
    Promise.resolve(
      new Response(JSON.stringify({ ok: true, content: 'x', execution_id: 'exe_1', request_id: 'req_1' }), { headers: { 'content-type': 'application/json' } }),
    );

  const plainHeaders = (init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    expect(headers).not.toBeInstanceOf(Headers);
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(headers).toMatchObject({ 'x-team': 'sdk', authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-oz-retry-count': '0' });
  };

  it("Node's own fetch gets a plain object of lower-case names (no Headers copied per attempt)", async () => {
    const inits: RequestInit[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => (inits.push(init), answer()));
    await new Oz({ baseURL: 'http://127.0.0.1:9', apiKey: KEY, logLevel: 'off', defaultHeaders: { 'X-Team': 'sdk' } }).tools.execute('echo', { text: 'hi' });
    plainHeaders(inits[0]!);
  });

  it('a fetch of your own gets the same plain object (one attempt path whatever the fetch)', async () => {
    const inits: RequestInit[] = [];
    await client({ defaultHeaders: { 'X-Team': 'sdk' }, fetch: (_url, init) => (inits.push(init!), answer()) }).tools.execute('echo', { text: 'hi' });
    plainHeaders(inits[0]!);
    expect(new Headers(inits[0]!.headers).get('authorization')).toBe(`Bearer ${KEY}`);
  });
});

describe('the credential header, checked once per key value', () => {
  it('a key checked on one call is sent the same on the next; a bad key after a good one is still refused', async () => {
    let key = `${KEY} `;
    const oz = client({ apiKey: () => key });
    await oz.tools.get('echo');
    await oz.tools.get('echo');
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    key = `${KEY}\r\nx-injected: 1`;
    const error = await rejectionOf(oz.tools.get('echo'));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toMatch(/\(from apiKey\)/);
    expect(server.requests).toHaveLength(2);
  });
});
