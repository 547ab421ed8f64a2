// The typed raw client (openapi-fetch over the SDK's transport): against the embedded server for real answers, and
// the scripted server for retries and exact headers.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { Oz, OzAPIError, OzUsageError, ToolNotFoundError, type Tool } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';
import { envelope, KEY, rejectionOf } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';

const scripted = ScriptedServer.forSuite();
let server: OzServer;
let oz: Oz;
beforeAll(() => {
  server = createTestServer();
  oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
});
afterAll(() => server.close());

describe('oz.raw against the embedded server', () => {
  it('GET a path template with typed params and a typed answer', async () => {
    const { data, error, response } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
    expectTypeOf(data).toEqualTypeOf<Tool | undefined>();
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name: 'echo', required: ['text'] });
    expect(server.journal.filter('getTool')[0]!.headers['authorization']).toBe(`Bearer ${server.apiKey}`);
  });

  it('POST an execute route: the SDK sends a trace id, which becomes the execution id', async () => {
    const { data } = await oz.raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: { text: 'raw' } });
    const sent = server.journal.filter('executeTool').at(-1)!;
    expect(data).toMatchObject({ ok: true, content: 'raw' });
    expect(sent.headers['x-trace-id']).toMatch(/^exe_/);
    expect(data!.execution_id).toBe(sent.headers['x-trace-id']);
  });

  it('a non-2xx answer throws its typed error (error is never returned)', async () => {
    const error = await rejectionOf(oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'nope' } } }));
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'tool_not_found' });
  });

  it('query parameters, the text wire with parseAs, and a stream with parseAs: stream', async () => {
    const { data: page } = await oz.raw.GET('/v1/tools', { params: { query: { limit: 2 } } });
    expect(page!.data).toHaveLength(2);
    const { data: text } = await oz.raw.POST('/v1/tools/{tool}/execute', {
      params: { path: { tool: 'echo' }, query: { format: 'text' } },
      body: { text: 'plain' },
      parseAs: 'text',
    });
    expect(text).toBe('plain');
    const { data: body } = await oz.raw.POST('/v1/execute', { body: { agent: 'writer', user_request: 'two words', stream: true }, parseAs: 'stream' });
    const events = await new Response(body).text();
    expect(events).toContain('event: token');
    expect(events).toContain('event: result');
  });

  it('runs openapi-fetch middlewares added before and after the first call, and ejects them', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
    const tag = (value: string) => ({ onRequest: ({ request }: { request: Request }) => void request.headers.set(`x-${value}`, '1') });
    const early = tag('early');
    client.raw.use(early);
    await client.raw.GET('/health');
    const late = tag('late');
    client.raw.use(late);
    await client.raw.GET('/health');
    client.raw.eject(early);
    await client.raw.GET('/health');
    const seen = server.journal
      .filter('getHealth')
      .slice(-3)
      .map((e) => [e.headers['x-early'], e.headers['x-late']]);
    expect(seen).toEqual([
      ['1', undefined],
      ['1', '1'],
      [undefined, '1'],
    ]);
  });

  it('types each call from openapi.json: parameters and bodies required where it requires them, data by parseAs', () => {
    // Type-level only (checked by `npm run typecheck`): the calls are never made.
    const typed = (raw: Oz['raw']) => {
      expectTypeOf(raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } }, parseAs: 'text' }))
        .resolves.toHaveProperty('data')
        .toEqualTypeOf<string | undefined>();
      expectTypeOf(raw.POST('/v1/execute', { body: { agent: 'writer', user_request: 'hi', stream: true }, parseAs: 'stream' }))
        .resolves.toHaveProperty('data')
        .toEqualTypeOf<Response['body'] | undefined>();
      expectTypeOf(raw.request('get', '/v1/tools/{tool}', { params: { path: { tool: 'echo' } } }))
        .resolves.toHaveProperty('data')
        .toEqualTypeOf<Tool | undefined>();
      // @ts-expect-error: the path parameter is required
      void raw.GET('/v1/tools/{tool}');
      // @ts-expect-error: a POST path is not a GET path
      void raw.GET('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } } });
      // @ts-expect-error: the body's type is the operation's
      void raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: 42 });
      // @ts-expect-error: an unknown parseAs
      void raw.GET('/health', { parseAs: 'xml' });
      void raw.GET('/health');
    };
    expectTypeOf(typed).toBeFunction();
  });

  it('refuses a path that is not an operation of openapi.json, before sending', async () => {
    const before = server.journal.count();
    const error = await rejectionOf(oz.raw.GET('/v1/nothing/here' as never));
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toBe("No operation of openapi.json is GET /v1/nothing/here; the raw client calls the API's own paths only.");
    expect(server.journal.count()).toBe(before);
  });

  it('refuses a body JSON cannot write, saying what and where, before sending (a typed error, not a bare TypeError)', async () => {
    const before = server.journal.count();
    const cyclic: Record<string, unknown> = { text: 'x' };
    cyclic.self = cyclic;
    for (const [body, problem] of [
      [{ text: 'x', n: 1n }, 'body.n is a BigInt (send it as a string or a number)'],
      [cyclic, 'body.self refers back to an object that holds it (a cycle)'],
    ] as const) {
      const error = await rejectionOf(oz.raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: body as never }));
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toBe(`The body of the raw request cannot be written as JSON: ${problem}. Nothing was sent.`);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
    }
    expect(server.journal.count()).toBe(before);
    const { data } = await oz.raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: { text: 'as JSON' } });
    expect(data).toMatchObject({ content: 'as JSON' });
  });
});

describe('oz.raw on the transport (scripted answers)', () => {
  it('retries after Retry-After with the same trace id and body, and the key on the header its plane takes', async () => {
    scripted.answer(
      { status: 429, headers: { 'retry-after': '1', 'x-error-code': 'rate_limited' }, body: { error: { code: 'rate_limited', message: 'wait' } } },
      { body: envelope('ok') },
      { body: { object: 'list', data: [] } },
    );
    const client = new Oz({ baseURL: `${scripted.url}/`, apiKey: KEY, authHeader: 'x-api-key', defaultHeaders: { 'x-team': 'raw' } });
    await client.raw.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: { text: 'x' }, headers: { 'x-extra': '1' } });
    await client.raw.GET('/v1/models');
    const [first, second, models] = scripted.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(second!.headers['x-trace-id']).toBe(first!.headers['x-trace-id']);
    expect(second!.body).toBe('{"text":"x"}');
    expect(first!.headers).toMatchObject({ 'x-api-key': KEY, 'x-team': 'raw', 'x-extra': '1', 'content-type': 'application/json' });
    expect(first!.headers.authorization).toBeUndefined();
    expect(models!.headers.authorization).toBe(`Bearer ${KEY}`); // the models plane takes bearer only
    expect(models!.path).toBe('/v1/models');
  });

  it('a 5xx after the last retry throws the typed error', async () => {
    scripted.fallback = () => ({ status: 500, body: { error: { code: 'internal_error', message: 'boom' } } });
    const client = new Oz({ baseURL: scripted.url, apiKey: KEY, maxRetries: 1, logLevel: 'off' });
    const error = await rejectionOf(client.raw.GET('/health'));
    expect(error).toBeInstanceOf(OzAPIError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(scripted.requests).toHaveLength(2);
  });
});

describe('oz.raw refuses the path parameters the resource methods refuse, before sending', () => {
  const raw = () => new Oz({ baseURL: scripted.url, apiKey: KEY, logLevel: 'off', maxRetries: 0 }).raw;

  it.each(['..', '.', '%2e%2e', '.%2E', '%252e%252e', '\ud800', 'a\udc00'])('tool=%j: POST, request("post", ...) and GET are OzUsageErrors', async (tool) => {
    const client = raw();
    const calls = [
      client.POST('/v1/tools/{tool}/execute', { params: { path: { tool } }, body: { text: 'x' } }),
      client.request('post', '/v1/tools/{tool}/execute', { params: { path: { tool } }, body: { text: 'x' } }),
      client.GET('/v1/tools/{tool}', { params: { path: { tool } } }),
    ];
    for (const call of calls) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(OzUsageError);
      expect((error as Error).message).toContain('Path parameter "tool" of');
    }
    expect(scripted.requests).toEqual([]);
  });

  it('a passed-through proxy path climbing out is refused; dots inside a segment still go out', async () => {
    const error = await rejectionOf(
      raw().GET('/v1/proxy/{provider}/{path}', { params: { path: { provider: 'crm', path: 'contacts/../../../v1/schedules' } } }),
    );
    expect(error).toBeInstanceOf(OzUsageError);
    expect(scripted.requests).toEqual([]);
    scripted.answer({ body: { tools: [] } });
    await raw().GET('/v1/tools/{tool}', { params: { path: { tool: 'my..tool' } } });
    expect(scripted.requests.map((r) => r.path)).toEqual(['/v1/tools/my..tool']);
  });
});
