/**
 * Property tests: the server's wire negotiation against a reference reading of the spec, the SSE path on
 * arbitrary events and chunk splits, JSON and YAML bodies that round-trip, error parsing on arbitrary answers,
 * and the server on arbitrary item bodies. Every answer of the server is checked against openapi.json by
 * createTestServer.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/core/attempt/errorBody.js';
import { Oz, OzAPIError, Stream, type ExecuteStreamEvent } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { createTestServer } from '../support/ozServer.js';
import { chunkedResponse, collect, envelope, splitAt, utf8 } from '../core/support/sse.js';

let server: OzServer;
let client: Oz;
beforeAll(() => {
  server = createTestServer();
  client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off', maxRetries: 0 });
});
afterAll(() => server.close());

const WIRE_OF: Record<string, string> = {
  'application/json': 'application/json',
  'text/yaml': 'text/yaml',
  'application/yaml': 'text/yaml',
  'application/x-yaml': 'text/yaml',
  'text/markdown': 'text/markdown',
  'text/plain': 'text/plain',
};

/** The spec's rule 2 then 3, read literally: highest q naming a known type, ties to the first; else Content-Type. */
function referenceWire(accept: readonly { type: string; q: number | undefined }[], contentType: string | undefined): string {
  let best: { wire: string; q: number } | undefined;
  for (const { type, q } of accept) {
    const wire = WIRE_OF[type.toLowerCase()];
    if (wire === undefined) continue;
    const weight = q ?? 1;
    if (best === undefined || weight > best.q) best = { wire, q: weight };
  }
  if (best) return best.wire;
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return ct === 'text/yaml' || ct === 'application/yaml' || ct === 'application/x-yaml' ? 'text/yaml' : 'application/json';
}

const mediaType = fc.oneof(
  fc.constantFrom(...Object.keys(WIRE_OF), 'TEXT/Markdown', 'Application/JSON'),
  fc.constantFrom('*/*', 'text/*', 'text/html', 'application/xml', 'image/png', 'application/vnd.oz+json', 'text/event-stream'),
);
// q from 0.001 to 1 in thousandths (q=0 means "not acceptable" in HTTP; the spec does not say, so it is left out).
const qValue = fc.option(
  fc.integer({ min: 1, max: 1000 }).map((n) => n / 1000),
  { nil: undefined },
);
const acceptList = fc.array(fc.record({ type: mediaType, q: qValue, spaces: fc.boolean() }), { minLength: 1, maxLength: 5 });
const render = (list: readonly { type: string; q: number | undefined; spaces: boolean }[]) =>
  list.map(({ type, q, spaces }) => (q === undefined ? type : spaces ? `${type} ; q=${q}` : `${type};q=${q}`)).join(', ');

describe('Accept negotiation (spec rules 2 and 3, through the server)', () => {
  it('GET: the answer wire is the reference reading of Accept, never a 400', async () => {
    await fc.assert(
      fc.asyncProperty(acceptList, async (list) => {
        const res = await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}`, accept: render(list) } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')?.split(';')[0]).toBe(referenceWire(list, undefined));
        await res.arrayBuffer();
      }),
      { numRuns: 120 },
    );
  });

  it('POST: with no known type in Accept the request Content-Type decides (yaml or json)', async () => {
    const contentType = fc.constantFrom(
      'application/json',
      'text/yaml',
      'application/yaml',
      'application/x-yaml',
      'application/json; charset=utf-8',
      'TEXT/YAML',
    );
    await fc.assert(
      fc.asyncProperty(fc.option(acceptList, { nil: undefined }), contentType, async (list, ct) => {
        const headers: Record<string, string> = { authorization: `Bearer ${server.apiKey}`, 'content-type': ct };
        if (list !== undefined) headers.accept = render(list);
        const body = ct.toLowerCase().includes('json') ? JSON.stringify({ text: 'hi' }) : 'text: hi\n';
        const res = await server.fetch(`${server.url}/v1/tools/echo/execute`, { method: 'POST', headers, body });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')?.split(';')[0]).toBe(referenceWire(list ?? [], ct));
        await res.arrayBuffer();
      }),
      { numRuns: 60 },
    );
  });
});

describe('SSE path on arbitrary events and chunk splits', () => {
  const delta = fc.string({ unit: 'binary', maxLength: 12 });
  const eventSpec = fc.oneof(
    delta.map((d) => ({ kind: 'token' as const, d })),
    fc.record({ kind: fc.constant('step' as const), task: fc.stringMatching(/^[a-z]{1,6}$/), status: fc.constantFrom('started', 'succeeded', 'failed') }),
    fc.constant({ kind: 'ping' as const }),
  );

  it('gives the same events whatever the events and however the bytes are split (LF or CRLF)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventSpec, { maxLength: 8 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 30 }), async (specs, crlf, rawCuts) => {
        const expected: ExecuteStreamEvent[] = [];
        let wire = '';
        for (const s of specs) {
          if (s.kind === 'ping') wire += ': ping\n\n';
          else if (s.kind === 'token') {
            wire += `event: token\ndata: ${JSON.stringify({ delta: s.d })}\n\n`;
            expected.push({ event: 'token', data: { delta: s.d } } as ExecuteStreamEvent);
          } else {
            wire += `event: step\ndata: ${JSON.stringify({ task_id: s.task, status: s.status })}\n\n`;
            expected.push({ event: 'step', data: { task_id: s.task, status: s.status } } as ExecuteStreamEvent);
          }
        }
        const content = specs.map((s) => (s.kind === 'token' ? s.d : '')).join('');
        wire += `event: result\ndata: ${JSON.stringify(envelope(content))}\n\n`;
        expected.push({ event: 'result', data: envelope(content) } as ExecuteStreamEvent);
        if (crlf) wire = wire.replace(/\n/g, '\r\n');
        const bytes = utf8(wire);
        const cuts = rawCuts.map((c) => 1 + (c % (bytes.length - 1)));
        const { response } = chunkedResponse(splitAt(bytes, cuts));
        const stream = new Stream<ExecuteStreamEvent>(response, { mode: 'events' });
        expect(await collect(stream)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});

describe('JSON and YAML request bodies round-trip', () => {
  // Titles the spec allows (1..300 characters) that are not blank; bodies up to a few hundred characters.
  const title = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((t) => t.trim().length > 0);
  const body = fc.option(fc.string({ unit: 'grapheme', maxLength: 200 }), { nil: undefined });

  it('items create sent as JSON and as YAML gives the same item', async () => {
    await fc.assert(
      fc.asyncProperty(title, body, async (t, b) => {
        const request = { building: 'hq', title: t, ...(b === undefined ? {} : { body: b }) };
        const outcome = async (bodyFormat: 'json' | 'yaml') => {
          try {
            const item = await client.companies.items.create('acme', request, { bodyFormat });
            return { title: item.title, body: item.body, building: item.building };
          } catch (error) {
            if (error instanceof OzAPIError) return { status: error.status, code: error.code };
            throw error;
          }
        };
        const viaJson = await outcome('json');
        const viaYaml = await outcome('yaml');
        expect(viaYaml).toEqual(viaJson);
        if ('title' in viaJson) expect(viaJson.title).toBe(t);
      }),
      { numRuns: 80 },
    );
  });
});

describe('error parsing on arbitrary answers', () => {
  const headerValue = fc.stringMatching(/^[\x21-\x7e]{0,20}$/);
  const contentType = fc.oneof(
    fc.constantFrom('application/json', 'text/yaml', 'text/markdown', 'text/plain', 'application/json; charset=utf-8', 'text/html', ''),
    headerValue,
  );
  const bodyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.json(),
    fc.jsonValue().map((error) => JSON.stringify({ error })),
    fc
      .record(
        {
          code: fc.string(),
          message: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
          missing: fc.anything(),
          contract: fc.anything(),
          hint: fc.anything(),
          execution_id: fc.anything(),
          connect: fc.anything(),
        },
        { requiredKeys: ['code'] },
      )
      .map((error) => JSON.stringify({ error })),
    fc
      .tuple(fc.string(), fc.string(), fc.array(fc.string()))
      .map(([c, m, miss]) => `# Error: ${c}\n\n${m}\n\n- missing: ${miss.join(', ')}\n\n---\nexecution_id: x\n`),
    fc.tuple(fc.string(), fc.string()).map(([c, m]) => `${c}: ${m}\nmissing: a, b\n`),
    fc.tuple(fc.string(), fc.string()).map(([c, m]) => `error:\n  code: ${c}\n  message: ${m}\n`),
    fc.constantFrom('error: [', 'error:\n  code: !!binary x', '{"error": {"code": 5}}', '{"error": []}', '---\n- a\n- b', '# Error:', ': '),
  );

  it('always a typed OzAPIError with the answer status, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 400, max: 599 }),
        contentType,
        bodyText,
        fc.option(headerValue, { nil: undefined }),
        fc.option(headerValue, { nil: undefined }),
        async (status, type, text, code, requestId) => {
          const headers = new Headers();
          if (type !== '') headers.set('content-type', type);
          if (code !== undefined) headers.set('x-error-code', code);
          if (requestId !== undefined) headers.set('x-request-id', requestId);
          const error = await errorFromResponse(new Response(text, { status, headers }));
          expect(error).toBeInstanceOf(OzAPIError);
          expect(error.status).toBe(status);
          expect(typeof error.code).toBe('string');
          expect(typeof error.message).toBe('string');
          expect(error.missing === undefined || (Array.isArray(error.missing) && error.missing.every((m) => typeof m === 'string'))).toBe(true);
          for (const field of [error.contract, error.hint, error.executionId, error.requestId]) expect(['string', 'undefined']).toContain(typeof field);
          expect(error.connect === undefined || typeof error.connect.link === 'string').toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the server on arbitrary item bodies', () => {
  const itemLike = fc.record(
    {
      building: fc.oneof(fc.constantFrom('hq', 'lab', 'nowhere', ''), fc.anything()),
      title: fc.oneof(fc.string({ maxLength: 310 }), fc.anything()),
      body: fc.oneof(fc.string(), fc.anything()),
      kind: fc.anything(),
      priority: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      tier: fc.oneof(fc.string({ maxLength: 40 }), fc.anything()),
      format: fc.oneof(fc.constantFrom('json', 'yaml', 'markdown', 'text', 'xml'), fc.anything()),
    },
    { requiredKeys: [] },
  );
  const rawBody = fc.oneof(
    itemLike.map((b) => ({ text: JSON.stringify(b), type: 'application/json' })),
    fc.jsonValue().map((b) => ({ text: JSON.stringify(b), type: 'application/json' })),
    fc.string({ unit: 'binary', maxLength: 120 }).map((text) => ({ text, type: 'application/json' })),
    fc.string({ unit: 'binary', maxLength: 120 }).map((text) => ({ text, type: 'text/yaml' })),
    itemLike.map((b) => ({ text: `building: ${JSON.stringify(b.building ?? 'hq')}\ntitle: ${JSON.stringify(b.title ?? 't')}\n`, type: 'text/yaml' })),
  );

  it('never a 500, nothing written on a 4xx, every answer valid against openapi.json', async () => {
    const count = async () => {
      const res = await server.fetch(`${server.url}/v1/companies/acme/items?limit=100`, { headers: { authorization: `Bearer ${server.apiKey}` } });
      return ((await res.json()) as { data: unknown[] }).data.length;
    };
    await fc.assert(
      fc.asyncProperty(rawBody, async ({ text, type }) => {
        server.reset();
        const before = await count();
        const res = await server.fetch(`${server.url}/v1/companies/acme/items`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': type },
          body: text,
        });
        await res.arrayBuffer();
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(await count()).toBe(before);
        else expect(await count()).toBe(before + 1);
      }),
      { numRuns: 200 },
    );
  });
});
