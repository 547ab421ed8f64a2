import { describe, expect, it } from 'vitest';
import { Oz, OzRedirectError } from '../../../src/index.js';
import { KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

// Two real loopback servers on two ports: two origins. `other` records every request that reaches it.
const service = ScriptedServer.forSuite();
const other = ScriptedServer.forSuite(() => ({ body: { ok: true, content: 'from the other origin', execution_id: 'exe_x', request_id: 'req_x' } }));
const client = (authHeader: 'bearer' | 'x-api-key') => new Oz({ baseURL: service.url, apiKey: KEY, authHeader, logLevel: 'off', maxRetries: 2 });
const result = { ok: true, content: 'here', execution_id: 'exe_1', request_id: 'req_1' };

describe('no credential header reaches another origin on a redirect', () => {
  const cases = (['bearer', 'x-api-key'] as const).flatMap((authHeader) => [301, 302, 303, 307, 308].map((status) => ({ authHeader, status })));

  it.each(cases)('$status to another port with authHeader $authHeader: OzRedirectError, nothing sent there, not retried', async ({ authHeader, status }) => {
    service.answer({ status, headers: { location: `${other.url}/v1/tools/echo/execute?x=1` } });
    const error = await rejectionOf(client(authHeader).tools.execute('echo', { text: 'secret body' }));
    expect(error).toBeInstanceOf(OzRedirectError);
    const redirect = error as OzRedirectError;
    expect(redirect.status).toBe(status);
    expect(redirect.location).toBe(`${other.url}/v1/tools/echo/execute?x=1`);
    expect(redirect.message).toContain(`to another origin, ${other.url}`);
    expect(redirect.message).not.toContain(KEY);
    expect(other.requests).toEqual([]);
    expect(service.requests).toHaveLength(1);
    // The key did go to the origin the client was given, in the header chosen.
    const sent = service.requests[0]!.headers;
    expect(authHeader === 'bearer' ? sent.authorization : sent['x-api-key']).toBe(authHeader === 'bearer' ? `Bearer ${KEY}` : KEY);
  });

  it.each(['bearer', 'x-api-key'] as const)(
    'with a middleware in the chain (authHeader %s): the same rule, nothing sent to the other origin',
    async (authHeader) => {
      service.answer({ status: 307, headers: { location: `${other.url}/v1/tools/echo/execute` } });
      const seen: number[] = [];
      const oz = new Oz({
        baseURL: service.url,
        apiKey: KEY,
        authHeader,
        logLevel: 'off',
        middleware: [
          async (request, next) => {
            const response = await next(request);
            seen.push(response.status);
            return response;
          },
        ],
      });
      const error = await rejectionOf(oz.tools.execute('echo', { text: 'secret body' }));
      expect(error).toBeInstanceOf(OzRedirectError);
      expect(other.requests).toEqual([]);
      expect(service.requests).toHaveLength(1);
      expect(seen).toEqual([]);
    },
  );

  it('a same-origin 307 with a middleware in the chain is followed with the key and the body', async () => {
    service.answer({ status: 307, headers: { location: '/v1/tools/echo/execute?moved=1' } }, { body: result });
    const oz = new Oz({ baseURL: service.url, apiKey: KEY, authHeader: 'x-api-key', logLevel: 'off', middleware: [(request, next) => next(request)] });
    await oz.tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'k2' });
    expect(service.requests.map((r) => [r.method, r.url, r.body, r.headers['x-api-key']])).toEqual([
      ['POST', '/v1/tools/echo/execute', '{"text":"hi"}', KEY],
      ['POST', '/v1/tools/echo/execute?moved=1', '{"text":"hi"}', KEY],
    ]);
  });

  it('a relative redirect on the same origin is followed with the key; 307 and 308 keep the method and body', async () => {
    for (const status of [307, 308]) {
      service.reset();
      service.answer({ status, headers: { location: '/v1/tools/echo/execute?moved=1' } }, { body: result });
      await client('x-api-key').tools.execute('echo', { text: 'hi' }, { idempotencyKey: 'k1' });
      expect(service.requests.map((r) => [r.method, r.url, r.body, r.headers['x-api-key'], r.headers['x-trace-id']])).toEqual([
        ['POST', '/v1/tools/echo/execute', '{"text":"hi"}', KEY, 'k1'],
        ['POST', '/v1/tools/echo/execute?moved=1', '{"text":"hi"}', KEY, 'k1'],
      ]);
    }
  });

  it('a same-origin 303 (or a 301/302 of a POST) is followed as a GET without the body, as fetch does', async () => {
    for (const status of [301, 302, 303]) {
      service.reset();
      service.answer({ status, headers: { location: `${service.url}/v1/executions/exe_1` } }, { body: result });
      await client('bearer').tools.execute('echo', { text: 'hi' });
      const [, second] = service.requests;
      expect([second!.method, second!.url, second!.body, second!.headers.authorization, second!.headers['content-type']]).toEqual([
        'GET',
        '/v1/executions/exe_1',
        '',
        `Bearer ${KEY}`,
        undefined,
      ]);
    }
  });

  it('more than 20 same-origin hops: OzRedirectError', async () => {
    service.fallback = (request) => ({ status: 302, headers: { location: `/loop/${request.url.length}` } });
    const error = await rejectionOf(client('bearer').tools.get('echo'));
    expect(error).toBeInstanceOf(OzRedirectError);
    expect((error as Error).message).toMatch(/redirected more than 20 times/);
    expect(service.requests).toHaveLength(21);
  });

  it('an https origin is another origin than http on the same host and port', async () => {
    service.answer({ status: 301, headers: { location: service.url.replace('http:', 'https:') + '/v1/tools/echo' } });
    const error = await rejectionOf(client('bearer').tools.get('echo'));
    expect(error).toBeInstanceOf(OzRedirectError);
    expect((error as Error).message).toMatch(/pass it as baseURL/);
  });

  it('a 3xx without a Location is an answer like any other (not followed, a typed API error)', async () => {
    service.answer({ status: 304, body: '' });
    const error = await rejectionOf(client('bearer').tools.get('echo'));
    expect(error).not.toBeInstanceOf(OzRedirectError);
    expect((error as { status?: number }).status).toBe(304);
  });
});

describe('a redirect whose Location is not a valid http(s) URL', () => {
  const malformed = ['http://[::1', `http://127.0.0.1:99999/v1/tools/echo/execute`, 'javascript:alert(1)', 'data:text/plain,hi', 'http://'];

  it.each(malformed.flatMap((location) => [307, 308, 303].map((status) => ({ location, status }))))(
    '$status to $location on a write: OzRedirectError, the write sent once, never retried',
    async ({ location, status }) => {
      service.fallback = () => ({ status, headers: { location } });
      const error = await rejectionOf(client('bearer').tools.execute('echo', { text: 'sent once' }));
      expect(error).toBeInstanceOf(OzRedirectError);
      const redirect = error as OzRedirectError;
      expect(redirect.status).toBe(status);
      expect(redirect.location).toBeUndefined();
      expect(redirect.message).toContain(`to ${JSON.stringify(location)}, which is not a valid http(s) URL`);
      expect(service.requests.map((r) => [r.method, r.body])).toEqual([['POST', '{"text":"sent once"}']]);
      expect(other.requests).toEqual([]);
    },
  );

  it('the same through a middleware and on a read: one request, OzRedirectError', async () => {
    service.fallback = () => ({ status: 302, headers: { location: 'http://[::1' } });
    const oz = new Oz({ baseURL: service.url, apiKey: KEY, logLevel: 'off', maxRetries: 2, middleware: [(request, next) => next(request)] });
    expect(await rejectionOf(oz.tools.execute('echo', { text: 'x' }))).toBeInstanceOf(OzRedirectError);
    expect(await rejectionOf(client('x-api-key').tools.get('echo'))).toBeInstanceOf(OzRedirectError);
    expect(service.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});
