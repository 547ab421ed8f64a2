import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../../src/generated/types.js';
import type { OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';
import { callJson, type ErrorBody } from '../support/serverCall.js';

// The input schemas of tools and agents arrive at run time, so the server interprets them (no code generation).
let server: OzServer;
afterEach(() => server?.close());

function execute(tool: string, body: unknown) {
  return callJson<ExecutionResult & ErrorBody>(server, 'POST', `/v1/tools/${tool}/execute`, { body });
}

const ORDER = {
  $defs: { quantity: { type: 'integer', minimum: 1, multipleOf: 2 } },
  properties: {
    sku: { type: 'string', pattern: '^[A-Z]{3}$' },
    count: { $ref: '#/$defs/quantity' },
    note: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 2 },
  },
  additionalProperties: false,
};

describe('tool input schemas, interpreted at run time', () => {
  it('resolves a reference inside the schema and words each problem as the generated validators do', async () => {
    server = createTestServer();
    server.addTool({ name: 'order', inputSchema: structuredClone(ORDER), required: ['sku'], handler: () => 'ok' });
    const message = async (params: unknown) => {
      const res = await execute('order', params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      return res.body.error.message;
    };
    expect((await execute('order', { sku: 'ABC', count: 4, note: null, tags: ['a'] })).body.content).toBe('ok');
    expect(await message({ sku: 'abc' })).toBe('sku must match the pattern ^[A-Z]{3}$.');
    expect(await message({ sku: 'ABC', count: 0 })).toBe('count must be an integer >= 1.');
    expect(await message({ sku: 'ABC', count: 3 })).toBe('count must be multiple of 2.');
    expect(await message({ sku: 'ABC', note: 'long' })).toBe('note must be a string of at most 3 characters or null.');
    expect(await message({ sku: 'ABC', tags: ['a', 'a'] })).toBe('tags must NOT have duplicate items.');
    expect(await message({ sku: 'ABC', tags: 'a' })).toBe('tags must be a list of strings (at most 2 items).');
    expect(await message({ count: 2, extra: 1 })).toBe('Missing required field: sku.');
    // The card is served as it was given: the interpreter's bookkeeping never shows.
    const card = await callJson<{ input_schema: unknown }>(server, 'GET', '/v1/tools/order');
    expect(card.body.input_schema).toEqual({ type: 'object', ...ORDER, required: ['sku'] });
  });

  it('stops addTool when the schema cannot be used: a reference to nothing, a pattern that is no regular expression', () => {
    server = createTestServer();
    expect(() => server.addTool({ name: 'lost', inputSchema: { properties: { a: { $ref: '#/$defs/missing' } } }, handler: () => '' })).toThrow(
      /^The input schema of lost is not a valid JSON Schema: can't resolve reference #\/\$defs\/missing/,
    );
    expect(() => server.addTool({ name: 'broken', inputSchema: { properties: { a: { type: 'string', pattern: '(' } } }, handler: () => '' })).toThrow(
      /^The input schema of broken is not a valid JSON Schema: /,
    );
  });

  it('accepts exactly the params ajv (the reference implementation) accepts', async () => {
    server = createTestServer();
    server.addTool({ name: 'order', inputSchema: structuredClone(ORDER), required: ['sku'], handler: () => 'ok' });
    const accepts = new Ajv2020({ strict: false }).compile({ type: 'object', ...ORDER, required: ['sku'] });
    const params = fc.record(
      {
        sku: fc.oneof(fc.constantFrom('ABC', 'abc', 'ABCD'), fc.integer()),
        count: fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constant(1.5), fc.constant('2')),
        note: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null), fc.constant(3)),
        tags: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }), fc.constant([1])),
        extra: fc.constant(true),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const res = await execute('order', p);
        expect(res.status, JSON.stringify(p)).toBe(accepts(p) ? 200 : 422);
      }),
      { numRuns: 120 },
    );
  });
});
