/**
 * An item's fields come from the `Item` schema of openapi.json (src/testing/state/itemFields.ts): a new item takes
 * the request's fields and the schema's defaults for the others, is shown with every
 * field of the schema, and a state document's item is checked against the schema's required fields.
 */
import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { ITEM_PLAIN_FIELDS, ITEM_RECORD_TYPES, newItemFields } from '../../../src/testing/state/itemFields.js';
import { createTestServer } from '../../support/ozServer.js';
import { callJson } from '../support/serverCall.js';

const ITEM_SCHEMA_FIELDS = Object.keys(openapi.components.schemas.Item.properties);

describe('a new item', () => {
  it("starts at the Item schema's defaults for what the request leaves out", () => {
    expect(newItemFields({ building: 'lab', title: 'Measure' })).toEqual({
      building: 'lab',
      title: 'Measure',
      body: '',
      kind: 'task',
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
      parent_item_id: null,
    });
  });

  it("takes the request's fields as given, and a null tier as no tier; the request's format is no field of it", () => {
    const fields = newItemFields({ building: 'hq', title: 't', body: 'b', kind: 'docs', priority: 3, tier: null });
    expect(fields).toMatchObject({ body: 'b', kind: 'docs', priority: 3, tier: null, step: 'intake' });
    expect(newItemFields({ building: 'hq', title: 't', tier: 'gold' }).tier).toBe('gold');
    expect(Object.keys(newItemFields({ building: 'hq', title: 't' }))).not.toContain('format');
  });

  it('is answered with every field of the Item schema, in its order, through the API', async () => {
    const server = createTestServer();
    const made = await callJson(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'x', priority: 2 } });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(ITEM_SCHEMA_FIELDS);
    expect(made.body).toMatchObject({ kind: 'task', priority: 2, step: 'intake', cost_usd: 0 });
    await server.close();
  });

  it('keeps every field of the schema but those stored in another form (cost, times) as it is shown', () => {
    expect(ITEM_PLAIN_FIELDS).toEqual(ITEM_SCHEMA_FIELDS.filter((f) => !['cost_usd', 'created_at', 'updated_at'].includes(f)));
  });
});

describe("a state document's item", () => {
  it('must have each required field of the Item schema, of its type (null where the schema allows it)', () => {
    expect(ITEM_RECORD_TYPES).toMatchObject({ id: 'string', account: 'string', kind: 'string', priority: 'number', tier: 'string?', cost_micros: 'number' });
    const server = createTestServer();
    const state = server.exportState();
    const item = {
      id: 'itm_x',
      account: 'demo',
      ...newItemFields({ building: 'lab', title: 'x' }),
      campus: 'acme',
      cost_micros: 0,
      created_at: 0,
      updated_at: 0,
    };
    server.importState({ ...state, items: [item] });
    expect(server.exportState().items).toHaveLength(1);
    const { kind: _kind, ...noKind } = item;
    expect(() => server.importState({ ...state, items: [noKind as typeof item] })).toThrow('State document: items[0].kind must be string.');
    expect(() => server.importState({ ...state, items: [{ ...item, tier: 5 as unknown as null }] })).toThrow(
      'State document: items[0].tier must be string or null.',
    );
    expect(server.exportState().items).toHaveLength(1);
    void server.close();
  });
});
