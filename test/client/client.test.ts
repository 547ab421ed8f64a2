import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { API_VERSION, Oz, OzAPIError, OzUsageError, SDK_VERSION, type FetchLike } from '../../src/index.js';
import { envelope, KEY, recordingLogger } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: envelope('ok') }));

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('client options', () => {
  it('reads OZ_API_KEY and OZ_BASE_URL when not given', async () => {
    process.env.OZ_API_KEY = KEY;
    process.env.OZ_BASE_URL = server.url;
    await new Oz().tools.get('echo');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses to start without a base URL, and to call without a key, with a clear typed error', async () => {
    delete process.env.OZ_BASE_URL;
    delete process.env.OZ_API_KEY;
    delete process.env.OZ_PROFILE;
    process.env.OZ_CONFIG_DIR = '/nonexistent/oz-config';
    expect(() => new Oz({ apiKey: KEY })).toThrow(OzUsageError);
    expect(() => new Oz({ apiKey: KEY })).toThrow(/OZ_BASE_URL/);
    // The key may still come from a profile, read on the first call (test/profiles/profileKey.test.ts).
    await expect(new Oz({ baseURL: server.url }).tools.get('echo')).rejects.toThrow(OzUsageError);
    await expect(new Oz({ baseURL: server.url }).tools.get('echo')).rejects.toThrow(/OZ_API_KEY/);
  });

  it('keeps a base URL path prefix', async () => {
    await new Oz({ baseURL: `${server.url}/api/`, apiKey: KEY }).tools.get('echo');
    expect(server.requests[0]!.path).toBe('/api/v1/tools/echo');
  });

  it('sends a User-Agent naming the SDK and API versions in Node', async () => {
    await new Oz({ baseURL: server.url, apiKey: KEY }).tools.get('echo');
    expect(server.requests[0]!.headers['user-agent']).toBe(`oz-sdk/1.0.0 (API 2.4.0; node/${process.versions.node})`);
  });

  it('states the versions package.json and openapi.json carry', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as { info: { version: string } };
    expect(SDK_VERSION).toBe(pkg.version);
    expect(API_VERSION).toBe(doc.info.version);
  });

  it('sends default headers, which per-call headers override or remove (null)', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY, defaultHeaders: { 'x-team': 'core', 'x-tenant': 'acme' } });
    await client.tools.get('echo', { headers: { 'x-team': 'sdk', 'x-tenant': null, 'user-agent': null } });
    const headers = server.requests[0]!.headers;
    expect(headers['x-team']).toBe('sdk');
    expect(headers['x-tenant']).toBeUndefined();
    expect(headers['user-agent']).not.toMatch(/oz-sdk/);
  });

  it('takes any Fetch-API function, per client or per call, and a per-call baseURL', async () => {
    const seen: string[] = [];
    const fetch: FetchLike = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    const client = new Oz({ baseURL: 'http://127.0.0.1:9/unused', apiKey: KEY, fetch });
    await client.tools.get('echo', { baseURL: server.url });
    const other: string[] = [];
    await client.tools.get('sum', { baseURL: server.url, fetch: (input, init) => (other.push(String(input)), globalThis.fetch(input, init)) });
    expect(seen).toEqual([`${server.url}/v1/tools/echo`]);
    expect(other).toEqual([`${server.url}/v1/tools/sum`]);
  });

  it('withOptions gives a new client over the same settings and key', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY, maxRetries: 4, timeout: 1000 });
    const other = client.withOptions({ maxRetries: 0, defaultHeaders: { 'x-from': 'copy' } });
    expect(other).not.toBe(client);
    expect([other.maxRetries, other.timeout, other.baseURL]).toEqual([0, 1000, server.url]);
    expect([client.maxRetries, client.timeout]).toEqual([4, 1000]);
    await other.tools.get('echo');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.headers['x-from']).toBe('copy');
  });

  it('reports its defaults', () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    expect([client.maxRetries, client.timeout]).toEqual([2, 600_000]);
  });

  it('rejects a negative maxRetries or a non-positive timeout before sending', async () => {
    const client = new Oz({ baseURL: server.url, apiKey: KEY });
    await expect(client.tools.get('echo', { maxRetries: -1 })).rejects.toBeInstanceOf(OzUsageError);
    await expect(client.tools.get('echo', { timeout: 0 })).rejects.toBeInstanceOf(OzUsageError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('browser guard', () => {
  const g = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete g.window;
    delete g.document;
  });

  it('refuses to start in a browser unless dangerouslyAllowBrowser is set', async () => {
    g.document = {};
    g.window = { document: g.document };
    expect(() => new Oz({ baseURL: server.url, apiKey: KEY })).toThrow(OzUsageError);
    expect(() => new Oz({ baseURL: server.url, apiKey: KEY })).toThrow(/dangerouslyAllowBrowser/);
    const client = new Oz({ baseURL: server.url, apiKey: KEY, dangerouslyAllowBrowser: true });
    await client.tools.get('echo');
    expect(server.requests[0]!.headers['user-agent']).not.toMatch(/oz-sdk/); // browsers own their User-Agent
  });
});

describe('response metadata', () => {
  it('withResponse gives the data, the raw Response, the request and execution ids and the rate limit', async () => {
    server.answer({
      headers: {
        'x-request-id': 'req_9',
        'x-execution-id': 'exe_9',
        'x-ratelimit-limit': '600',
        'x-ratelimit-remaining': '599',
        'x-ratelimit-reset': '42',
      },
      body: envelope('hi', 'exe_9', 'req_9'),
    });
    const { data, response, requestId, executionId, rateLimit } = await new Oz({ baseURL: server.url, apiKey: KEY }).tools
      .execute('echo', { text: 'hi' })
      .withResponse();
    expect(data.content).toBe('hi');
    expect(response.status).toBe(200);
    expect({ requestId, executionId, rateLimit }).toEqual({ requestId: 'req_9', executionId: 'exe_9', rateLimit: { limit: 600, remaining: 599, reset: 42 } });
  });

  it('reports absent metadata as null', async () => {
    server.answer({ body: { status: 'ok' } });
    const { requestId, executionId, rateLimit } = await new Oz({ baseURL: server.url, apiKey: KEY }).meta.health().withResponse();
    expect({ requestId, executionId, rateLimit }).toEqual({ requestId: null, executionId: null, rateLimit: { limit: null, remaining: null, reset: null } });
  });

  it('asResponse gives the raw Response', async () => {
    server.answer({ status: 201, headers: { 'x-request-id': 'req_c' }, body: { id: 'itm_1' } });
    const response = await new Oz({ baseURL: server.url, apiKey: KEY }).companies.items.create('acme', { building: 'hq', title: 't' }).asResponse();
    expect([response.status, response.headers.get('x-request-id')]).toEqual([201, 'req_c']);
  });
});

describe('logging', () => {
  it('logs nothing below the level, requests and responses at debug, retries at info', async () => {
    server.answer({ status: 503, headers: { 'x-error-code': 'not_enabled', 'retry-after': '0' } }, { body: envelope('ok') });
    const quiet = recordingLogger();
    await new Oz({ baseURL: server.url, apiKey: KEY, logger: quiet, logLevel: 'warn' }).tools.get('echo');
    expect(quiet.lines).toEqual([]);

    server.answer({ status: 503, headers: { 'x-error-code': 'not_enabled', 'retry-after': '0' } }, { body: envelope('ok') });
    const loud = recordingLogger();
    await new Oz({ baseURL: server.url, apiKey: KEY, logger: loud, logLevel: 'debug' }).tools.get('echo');
    const levels = loud.lines.map((l) => l.level);
    expect(levels.filter((l) => l === 'debug')).toHaveLength(4); // two requests, two responses
    expect(loud.lines.find((l) => l.level === 'info')?.message).toMatch(/503 not_enabled\. Retrying in 0 ms/);
    const request = loud.lines[0]!;
    expect(request.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/tools\/echo \(attempt 1 of 3\)/);
    expect(request.rest[0]).toMatchObject({ headers: { authorization: '[redacted]' } });
  });

  it('takes the level per call', async () => {
    const logger = recordingLogger();
    const client = new Oz({ baseURL: server.url, apiKey: KEY, logger, logLevel: 'off' });
    await client.tools.get('echo');
    await client.tools.get('echo', { logLevel: 'debug' });
    // The request and the answer, after the warning that a log level belongs to a client (withOptions).
    expect(logger.lines.map((line) => line.level)).toEqual(['warn', 'debug', 'debug']);
    expect(logger.lines[0]!.message).toMatch(/^options\.logLevel on a call is deprecated/);
  });

  it('reads OZ_LOG, and warns about a value it does not know', async () => {
    process.env.OZ_LOG = 'debug';
    const logger = recordingLogger();
    await new Oz({ baseURL: server.url, apiKey: KEY, logger }).tools.get('echo');
    expect(logger.lines.map((l) => l.level)).toEqual(['debug', 'debug']);

    process.env.OZ_LOG = 'verbose';
    const warned = recordingLogger();
    new Oz({ baseURL: server.url, apiKey: KEY, logger: warned });
    expect(warned.lines).toHaveLength(1);
    expect(warned.lines[0]!.message).toMatch(/OZ_LOG is "verbose"/);
  });
});

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

/** A Fetch-API function that records what it was sent and answers from a script. */
function recordingFetch(answer: (req: Request) => Response) {
  const seen: Seen[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push({ url: req.url, method: req.method, headers: req.headers, body: req.body ? await req.clone().text() : null });
    return answer(req);
  };
  return { fetch, seen };
}

const item = {
  id: 'itm_1',
  campus: 'acme',
  building: 'hq',
  title: 'Ship it',
  body: '',
  kind: 'feature',
  source: 'api',
  priority: 0,
  tier: null,
  step: 'intake',
  attempt: 0,
  status: 'active',
  parked_reason: null,
  paused: 0,
  steer: null,
  last_output: null,
  cost_usd: 0,
  parent_item_id: null,
  created_at: '2026-11-21T12:00:00.000Z',
  updated_at: '2026-11-21T12:00:00.000Z',
};

describe('a client over a custom fetch (no server)', () => {
  it('sends path parameters, a JSON body and the bearer key, and parses the JSON answer', async () => {
    const { fetch, seen } = recordingFetch(() => Response.json(item, { status: 201 }));
    const client = new Oz({ baseURL: 'http://oz.test/', apiKey: 'ozk_abc', fetch });
    const created = await client.companies.items.create('acme co', { building: 'hq', title: 'Ship it', kind: 'feature' });
    expect(created).toEqual(item);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('http://oz.test/v1/companies/acme%20co/items');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer ozk_abc');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(seen[0]!.body!)).toEqual({ building: 'hq', title: 'Ship it', kind: 'feature' });
  });

  it('asks for the chosen wire with ?format= and answers a string on markdown and text', async () => {
    const { fetch, seen } = recordingFetch(() => new Response('hi', { headers: { 'content-type': 'text/plain' } }));
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const text = await client.tools.execute('echo', { params: { text: 'hi' } }, { format: 'text' });
    expect(text).toBe('hi');
    expect(new URL(seen[0]!.url).searchParams.get('format')).toBe('text');
  });

  it('parses the yaml wire with timestamps kept as strings', async () => {
    const yaml = 'id: itm_1\ncreated_at: 2026-11-21T12:00:00.000Z\n';
    const { fetch } = recordingFetch(() => new Response(yaml, { headers: { 'content-type': 'text/yaml' } }));
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const got = await client.companies.items.get('acme', 'itm_1', { format: 'yaml' });
    expect(got).toEqual({ id: 'itm_1', created_at: '2026-11-21T12:00:00.000Z' });
  });

  it('sends no key where the operation needs none', async () => {
    const { fetch, seen } = recordingFetch(() => Response.json({ status: 'ok' }));
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    await expect(client.meta.health()).resolves.toEqual({ status: 'ok' });
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('throws OzAPIError with the status and the X-Error-Code of an error answer', async () => {
    const { fetch } = recordingFetch(() =>
      Response.json(
        { error: { code: 'company_not_found', message: 'No company acme.' } },
        { status: 404, headers: { 'x-error-code': 'company_not_found', 'x-request-id': 'req_1' } },
      ),
    );
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const error = await client.companies.items.create('acme', { building: 'hq', title: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzAPIError);
    expect(error).toMatchObject({ status: 404, code: 'company_not_found', requestId: 'req_1' });
  });

  it('walks every page of a list route with for await', async () => {
    const pages: Record<string, unknown> = {
      '': {
        data: [
          { ...item, id: 'itm_1' },
          { ...item, id: 'itm_2' },
        ],
        next_cursor: 'c2',
      },
      c2: { data: [{ ...item, id: 'itm_3' }], next_cursor: 'c3' },
      c3: { data: [{ ...item, id: 'itm_4' }], next_cursor: null },
    };
    const { fetch, seen } = recordingFetch((req) => Response.json(pages[new URL(req.url).searchParams.get('cursor') ?? '']));
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const ids: string[] = [];
    for await (const it of client.companies.items.list('acme', { building: 'hq', limit: 2 })) ids.push(it.id);
    expect(ids).toEqual(['itm_1', 'itm_2', 'itm_3', 'itm_4']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual(['?building=hq&limit=2', '?building=hq&limit=2&cursor=c2', '?building=hq&limit=2&cursor=c3']);
  });

  it('gives the response metadata with withResponse()', async () => {
    const { fetch } = recordingFetch(() =>
      Response.json(
        { ok: true, content: 'hi', execution_id: 'exe_1', request_id: 'req_9' },
        { headers: { 'x-request-id': 'req_9', 'x-execution-id': 'exe_1' } },
      ),
    );
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const { data, requestId, executionId, response } = await client.tools.execute('echo', { text: 'hi' }).withResponse();
    expect(data.content).toBe('hi');
    expect(requestId).toBe('req_9');
    expect(executionId).toBe('exe_1');
    expect(response.status).toBe(200);
  });
});
