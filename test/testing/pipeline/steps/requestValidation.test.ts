import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import openapi from '../../../../openapi.json' with { type: 'json' };
import type { OzServer } from '../../../../src/testing/index.js';
import { createTestServer } from '../../../support/ozServer.js';
import { call, callJson, type ErrorBody } from '../../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

async function itemCount(): Promise<number> {
  return (await callJson<{ data: unknown[] }>(server, 'GET', '/v1/companies/acme/items?limit=100')).body.data.length;
}

// The oracle: openapi.json read by a validator of the test's own, not the server's code.
const ajv = new Ajv2020({ strict: false, validateSchema: false });
ajv.addSchema(openapi as object, 'openapi.json');
const documentAccepts = (name: string) => ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;

const absent = fc.constant(undefined);
const text = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: max + 2 }),
    fc.integer({ min: Math.max(0, max - 2), max: max + 1 }).map((n) => '😀'.repeat(n)),
    fc.integer({ min: Math.max(0, max - 2), max: max + 1 }).map((n) => 'é'.repeat(n)),
  );

describe('the server validates requests with openapi.json’s own schemas', () => {
  it('answers 201 exactly for the item bodies the document accepts, and 422 invalid_params for the others', async () => {
    server = createTestServer();
    const body = fc.record(
      {
        building: fc.oneof(fc.constant('hq'), fc.constant(5), fc.constant(null)),
        title: fc.oneof(text(300), fc.constant(7), fc.constant(null)),
        body: fc.oneof(text(40), fc.constant(null), fc.constant(['x'])),
        kind: fc.oneof(fc.constantFrom('feature', 'bugfix', 'docs', 'research', 'content', 'task', 'epic'), fc.constant(3)),
        priority: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(1.5), fc.constant('3'), fc.constant(null)),
        tier: fc.oneof(text(32), fc.constant(null), fc.constant(7)),
      },
      { requiredKeys: [] },
    );
    const accepts = documentAccepts('ItemCreateRequest');
    let created = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await callJson<ErrorBody>(server, 'POST', '/v1/companies/acme/items', { body: b });
        if (accepts(b)) {
          expect(res.status, JSON.stringify(b)).toBe(201);
          created++;
        } else {
          expect([res.status, res.body.error.code], JSON.stringify(b)).toEqual([422, 'invalid_params']);
        }
      }),
      { numRuns: 150 },
    );
    expect(await itemCount()).toBe(Math.min(created, 100));
  });

  it('answers 200 exactly for the chat bodies the document accepts, and 422 with OpenAI’s param for the others', async () => {
    server = createTestServer();
    const message = fc.record(
      {
        role: fc.constantFrom('user', 'system', 'assistant', 'robot'),
        content: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null), fc.constant(4), fc.constant([{ type: 'text', text: 'x' }])),
      },
      { requiredKeys: ['role'] },
    );
    const body = fc.record(
      {
        model: fc.constant('oz-chat'),
        messages: fc.oneof(fc.array(message, { maxLength: 3 }), fc.constant('hi')),
        max_tokens: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null), fc.constant(2.5)),
        temperature: fc.oneof(fc.double({ min: -1, max: 3, noNaN: true }), fc.constant(null)),
        n: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(null)),
        stream: fc.oneof(fc.constant(false), fc.constant('yes')),
      },
      { requiredKeys: ['model'] },
    );
    const accepts = documentAccepts('ChatCompletionRequest');
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await callJson<ErrorBody>(server, 'POST', '/v1/chat/completions', { body: b });
        if (accepts(b)) {
          expect(res.status, JSON.stringify(b)).toBe(200);
        } else {
          expect([res.status, res.body.error.code, res.body.error.type], JSON.stringify(b)).toEqual([422, 'invalid_params', 'invalid_request_error']);
          expect(typeof res.body.error.param, JSON.stringify(b)).toBe('string');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('names the field and what it must be, from the schema: nested paths, ranges, enums, members', async () => {
    server = createTestServer();
    const message = async (method: string, path: string, body?: unknown) => {
      const res = await callJson<ErrorBody>(server, method, path, { body });
      expect(res.status, path).toBe(422);
      return res.body.error;
    };
    expect((await message('POST', '/v1/companies/acme/items', { building: 'hq', title: 'T', kind: 'epic' })).message).toBe(
      'kind must be one of: feature, bugfix, docs, research, content, task.',
    );
    expect(await message('POST', '/v1/workflows/execute', { workflow: { name: 'w', tasks: [{ id: 't', type: 'task' }] } })).toMatchObject({
      message: 'Missing required field: workflow.tasks[0].agent.',
      missing: ['workflow.tasks[0].agent'],
    });
    expect((await message('POST', '/v1/embeddings', { model: 'oz-embed', input: [] })).message).toBe('input must be a string or a non-empty list of strings.');
    expect((await message('POST', '/v1/embeddings', { model: 'oz-embed', input: 'x', dimensions: 5000 })).message).toBe(
      'dimensions must be an integer from 1 to 4096.',
    );
    expect((await message('POST', '/v1/workflows', { name: 'Bad Name', tasks: [{ id: 't', type: 'task', agent: 'writer' }] })).message).toBe(
      'name must match the pattern ^[a-z0-9][a-z0-9-_]*$.',
    );
    expect(await message('POST', '/v1/connections/maps/link', { method: 'api_key' })).toMatchObject({
      message: 'Missing required field: api_key.',
      missing: ['api_key'],
    });
    expect((await message('POST', '/v1/schedules', { name: 's', cron: '0 0 * * *', target: { kind: 'robot', name: 'echo' } })).message).toBe(
      'target.kind must be one of: tool, agent, workflow.',
    );
  });

  it('validates query parameters and headers from the document, lengths in code points', async () => {
    server = createTestServer();
    const limit = await callJson<ErrorBody>(server, 'GET', '/v1/tools?limit=ten');
    expect([limit.status, limit.body.error.message]).toEqual([422, 'limit must be an integer from 1 to 100, in decimal digits.']);
    const status = await callJson<ErrorBody>(server, 'GET', '/v1/executions?status=sleeping');
    expect([status.status, status.body.error.message]).toEqual([422, 'status must be one of: queued, running, succeeded, failed, cancelled.']);
    const q = (n: number) => `/v1/discovery?q=${encodeURIComponent('😀'.repeat(n))}`;
    expect((await call(server, 'GET', q(500))).status).toBe(200);
    const long = await callJson<ErrorBody>(server, 'GET', q(501));
    expect([long.status, long.body.error.message]).toEqual([422, 'q must be a string of at most 500 characters.']);
    const trace = await callJson<ErrorBody>(server, 'POST', '/v1/tools/echo/execute', { body: { text: 'x' }, headers: { 'x-trace-id': 't'.repeat(256) } });
    expect([trace.status, trace.body.error.code]).toEqual([422, 'invalid_params']);
    expect(trace.body.error.message).toMatch(/^x-trace-id must be 1 to 255 printable ASCII characters without spaces\.$/);
  });

  it('answers a format outside the wires with 400 invalid_format (as JSON), from the body or the query', async () => {
    server = createTestServer();
    for (const [path, body] of [
      ['/v1/tools/echo/execute', { text: 'x', format: 'xml' }],
      ['/v1/tools/echo/execute?format=xml', { text: 'x' }],
      ['/v1/companies/acme/items', { building: 'hq', title: 'T', format: 'html' }],
    ] as const) {
      const res = await call(server, 'POST', path, { body, headers: { accept: 'text/yaml' } });
      expect([res.status, res.headers.get('content-type'), ((await res.json()) as ErrorBody).error.message], path).toEqual([
        400,
        'application/json',
        'format must be one of: json, yaml, markdown, text',
      ]);
    }
    expect(await itemCount()).toBe(0);
  });
});
