/** The builders of `oz-sdk/testing`: one per resource schema, valid, typed, deterministic, usable as answers. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { Oz } from '../../../src/index.js';
import { build, connectOzMock, createBuilders, type OzBuilders } from '../../../src/testing/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

type Json = Record<string, any>;
const doc = openapi as unknown as Json;
const servers = testServersForSuite();

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(doc, 'openapi.json');
const validate = (schema: string, value: unknown) => {
  const check = ajv.getSchema(`openapi.json#/components/schemas/${schema}`)!;
  return check(value) ? [] : check.errors;
};

/** The schemas the API answers with a 2xx JSON body, a list's element in place of the list: read from openapi.json here. */
function answeredSchemas(): string[] {
  const out = new Set<string>();
  for (const item of Object.values(doc.paths as Json)) {
    for (const op of Object.values(item as Json)) {
      for (const [status, response] of Object.entries((op as Json).responses ?? {})) {
        const ref: string | undefined = ((response as Json).content?.['application/json']?.schema as Json | undefined)?.$ref;
        if (!status.startsWith('2') || !ref) continue;
        const name = ref.split('/').pop()!;
        const schema = doc.components.schemas[name];
        const element: string | undefined = name.endsWith('List') ? schema.properties.data.items.$ref?.split('/').pop() : undefined;
        if (element) out.add(element);
        else if (schema.properties) out.add(name);
      }
    }
  }
  return [...out].sort();
}

/** Every builder of a set but `error` and `page`, each called with no overrides. */
function resourceBuilders(set: OzBuilders): Array<[string, () => unknown]> {
  return Object.entries(set)
    .filter(([name]) => name !== 'error' && name !== 'page')
    .map(([name, fn]) => [name, fn as () => unknown]);
}

/** The builder's name of a schema: `x-oz-builder`, else the schema's name in lower camel case. */
const builderName = (schema: string): string => doc.components.schemas[schema]['x-oz-builder'] ?? schema[0]!.toLowerCase() + schema.slice(1);

describe('one builder per resource schema', () => {
  it("every schema the API answers (a list's element for a list) has a builder, named as the contract says", () => {
    const schemas = answeredSchemas();
    expect(schemas).toEqual(expect.arrayContaining(['AsyncPointer', 'Execution', 'ExecutionResult', 'Item', 'Schedule', 'Tool', 'Agent', 'Trace', 'Workflow']));
    const names = resourceBuilders(build).map(([name]) => name);
    for (const schema of schemas) {
      const name = builderName(schema);
      expect(names, `${schema} has no builder build.${name}()`).toContain(name);
    }
    expect(names).toHaveLength(schemas.length);
    for (const name of ['item', 'execution', 'tool', 'agent', 'schedule', 'workflow', 'trace', 'pointer', 'result']) expect(names).toContain(name);
  });

  it('every built value is valid against openapi.json (checked here with ajv over the document)', () => {
    for (const schema of answeredSchemas()) {
      const value = (build as unknown as Record<string, () => unknown>)[builderName(schema)]!();
      expect(validate(schema, value), `build.${builderName(schema)}() is not a valid ${schema}`).toEqual([]);
    }
    expect(validate('ErrorEnvelope', build.error('item_not_found'))).toEqual([]);
    expect(validate('ItemList', build.page([build.item(), build.item()], 'cur_2'))).toEqual([]);
  });

  it('ids carry the prefix openapi.json gives them (x-oz-id-prefix) and are unique within a set', () => {
    const set = createBuilders({ seed: 3 });
    expect(set.item().id).toMatch(/^itm_[A-Za-z0-9]{24}$/);
    expect(set.execution().id).toMatch(/^exe_/);
    expect(set.workflow().id).toMatch(/^wfl_/);
    expect(set.schedule().id).toMatch(/^sch_/);
    expect(set.result().request_id).toMatch(/^req_/);
    expect(set.pointer().execution_id).toMatch(/^exe_/);
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) ids.add(set.item().id).add(set.execution().id);
    expect(ids.size).toBe(10_000);
  });
});

describe('overrides', () => {
  it('are typed as the schema: a wrongly typed override fails tsc', () => {
    // @ts-expect-error: 'stuck' is not an ItemStatus
    expect(() => build.item({ status: 'stuck' })).toThrow(TypeError);
    // @ts-expect-error: priority is an integer, not a string
    expect(() => build.item({ priority: 'high' })).toThrow(TypeError);
    // @ts-expect-error: no such field on an Execution (openapi.json allows more fields: only tsc refuses it)
    expect(build.execution({ colour: 'red' })).toMatchObject({ colour: 'red' });
    const parked = build.item({ status: 'parked', step: 'parked', parked_reason: 'waiting for review' });
    expect(parked).toMatchObject({ status: 'parked', step: 'parked', parked_reason: 'waiting for review', campus: expect.any(String) });
  });

  it('one that makes the value invalid throws a TypeError naming its JSON path', () => {
    expect(() => build.item({ status: 'stuck' as never })).toThrow(/build\.item\(\): not a valid Item of openapi\.json at \$\.status: status must be one of: /);
    expect(() => build.execution({ status: 'failed', error: { code: 'upstream_error' } as never })).toThrow(/at \$\.error\.message/);
    expect(() => build.item({ priority: 1.5 })).toThrow(/\$\.priority/);
    expect(() => build.item('not an object' as never)).toThrow(/overrides must be an object/);
  });

  it('a field given as undefined keeps the built value', () => {
    expect(build.item({ title: undefined }).title).toEqual(expect.any(String));
  });
});

describe('determinism', () => {
  it('two sets with one seed give the same values for the same calls; another seed gives other ids', () => {
    const run = (seed: number) => {
      const set = createBuilders({ seed });
      return [set.item(), set.execution({ status: 'succeeded', content: 'done' }), set.trace(), set.pointer()];
    };
    expect(run(11)).toEqual(run(11));
    expect(run(11)[0]).not.toEqual(run(12)[0]);
    expect(createBuilders().item()).toEqual(createBuilders({ seed: 0 }).item());
  });

  it('a seed that is not an integer is refused', () => {
    expect(() => createBuilders({ seed: 1.5 })).toThrow(TypeError);
  });
});

describe('error and page', () => {
  it("error(code) is the envelope with the code's description and the fields it carries; fields override", () => {
    const e = build.error('invalid_params', { missing: ['title'] });
    expect(e.error).toMatchObject({ code: 'invalid_params', missing: ['title'], message: expect.stringContaining('failed validation') });
    expect(build.error('connection_required').error.connect).toMatchObject({ provider: expect.any(String), link: expect.any(String) });
    expect(build.error('not_enabled', { message: 'Not on this tier.' }).error.message).toBe('Not on this tier.');
    expect(() => build.error('no_such_code' as never)).toThrow(/not an ErrorCode/);
    expect(() => build.error('invalid_params', { missing: 'title' as never })).toThrow(/\$\.error\.missing/);
  });

  it("page(items, nextCursor) is a list route's answer; bad arguments throw", () => {
    expect(build.page([1, 2])).toEqual({ data: [1, 2], next_cursor: null });
    expect(build.page([], 'c_1')).toEqual({ data: [], next_cursor: 'c_1' });
    expect(() => build.page('x' as never)).toThrow(TypeError);
    expect(() => build.page([], 5 as never)).toThrow(TypeError);
  });
});

describe('built values as answers', () => {
  it('a built item as a stub answer comes back equal through the SDK (in process)', async () => {
    const server = servers.create();
    const item = build.item({ campus: 'acme', building: 'hq', status: 'parked', step: 'parked', parked_reason: 'needs a human' });
    server.stubs.add({ operationId: 'getCompanyItem', match: { path: { id: item.id } }, answer: { status: 200, body: item } });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, maxRetries: 0 });
    expect(await oz.companies.items.get('acme', item.id)).toEqual(item);
  });

  it('as JSON over HTTP: a stub added through connectOzMock answers the built execution and error', async () => {
    const server = servers.create();
    const listener = await server.listen();
    const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
    const set = createBuilders({ seed: 5 });
    const execution = set.execution({ status: 'succeeded', content: 'done', finished_at: '2026-11-21T12:00:01.000Z' });
    await mock.stubs.add({
      operationId: 'getExecution',
      match: { path: { id: execution.id } },
      answer: { status: 200, body: execution, headers: { 'x-execution-id': execution.id } },
    });
    await mock.stubs.add({ operationId: 'getExecution', match: { path: { id: 'exe_gone' } }, answer: { status: 404, body: set.error('execution_not_found') } });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: listener.url, maxRetries: 0 });
    expect(await oz.executions.get(execution.id)).toEqual(execution);
    await expect(oz.executions.get('exe_gone')).rejects.toMatchObject({ code: 'execution_not_found', status: 404 });
  });

  it('as a respond result, and an agent as a fixture record', async () => {
    const server = servers.create();
    server.stubs.add({ operationId: 'getTrace', respond: (req) => ({ status: 200, body: build.trace({ execution_id: req.path.execution_id! }) }) });
    server.loadFixtures({ agents: [{ ...build.agent({ name: 'helper', description: 'Helps.' }), answer: 'Glad to help.' }] });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, maxRetries: 0 });
    expect((await oz.traces.get('exe_abc')).execution_id).toBe('exe_abc');
    expect(await oz.agents.get('helper')).toMatchObject({ name: 'helper', description: 'Helps.' });
  });
});
