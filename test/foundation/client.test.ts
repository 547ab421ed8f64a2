import { describe, expect, it } from 'vitest';
import { Oz, OzAPIError, OzError } from '../../src/index.js';

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
  id: 'itm_1', campus: 'acme', building: 'hq', title: 'Ship it', body: '', kind: 'feature', source: 'api',
  priority: 0, tier: null, step: 'intake', attempt: 0, status: 'active', parked_reason: null, paused: 0,
  steer: null, last_output: null, cost_usd: 0, parent_item_id: null,
  created_at: '2026-11-21T12:00:00.000Z', updated_at: '2026-11-21T12:00:00.000Z',
};

describe('Oz client (minimal transport)', () => {
  it('refuses to start without a base URL or a key', () => {
    const saved = { ...process.env };
    delete process.env.OZ_BASE_URL;
    delete process.env.OZ_API_KEY;
    try {
      expect(() => new Oz({ apiKey: 'ozk_x' })).toThrow(/base URL/);
      expect(() => new Oz({ baseURL: 'http://127.0.0.1:1' })).toThrow(OzError);
    } finally {
      process.env = saved;
    }
  });

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
      '': { data: [{ ...item, id: 'itm_1' }, { ...item, id: 'itm_2' }], next_cursor: 'c2' },
      c2: { data: [{ ...item, id: 'itm_3' }], next_cursor: 'c3' },
      c3: { data: [{ ...item, id: 'itm_4' }], next_cursor: null },
    };
    const { fetch, seen } = recordingFetch((req) => Response.json(pages[new URL(req.url).searchParams.get('cursor') ?? '']));
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const ids: string[] = [];
    for await (const it of client.companies.items.list('acme', { building: 'hq', limit: 2 })) ids.push(it.id);
    expect(ids).toEqual(['itm_1', 'itm_2', 'itm_3', 'itm_4']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual([
      '?building=hq&limit=2',
      '?building=hq&limit=2&cursor=c2',
      '?building=hq&limit=2&cursor=c3',
    ]);
  });

  it('gives the response metadata with withResponse()', async () => {
    const { fetch } = recordingFetch(() =>
      Response.json({ ok: true, content: 'hi', execution_id: 'exe_1', request_id: 'req_9' }, { headers: { 'x-request-id': 'req_9', 'x-execution-id': 'exe_1' } }),
    );
    const client = new Oz({ baseURL: 'http://oz.test', apiKey: 'ozk_abc', fetch });
    const { data, requestId, executionId, response } = await client.tools.execute('echo', { text: 'hi' }).withResponse();
    expect(data.content).toBe('hi');
    expect(requestId).toBe('req_9');
    expect(executionId).toBe('exe_1');
    expect(response.status).toBe(200);
  });
});
