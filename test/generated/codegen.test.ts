import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Oz } from '../../src/index.js';
import { OPERATIONS } from '../../src/generated/operations.js';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { resourcesOf } from '../../scripts/codegen/model.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = JSON.parse(readFileSync(`${root}/openapi.json`, 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; 'x-oz-method': string }>>;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Only HTTP methods are operations; `x-` keys of a path item are extensions.
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ method: method.toUpperCase(), path, ...op })),
);

describe('the generated layer', () => {
  const client = new Oz({ baseURL: 'http://127.0.0.1:1', apiKey: 'ozk_test' });

  it.each(operations)('$method $path has a method at client.$x-oz-method', (op) => {
    const segments = op['x-oz-method'].split('.');
    const verb = segments.pop()!;
    let target: unknown = client;
    for (const s of segments) target = (target as Record<string, unknown>)[s];
    expect(typeof (target as Record<string, unknown>)[verb]).toBe('function');
    const spec = OPERATIONS[op.operationId as keyof typeof OPERATIONS];
    expect(spec).toMatchObject({ id: op.operationId, method: op.method, path: op.path });
  });

  it('has no operation that openapi.json does not have', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  it('marks every execute call as one that starts a run, and every list route paged', () => {
    const idempotent = Object.values(OPERATIONS)
      .filter((o) => o.startsRun)
      .map((o) => o.id)
      .sort();
    expect(idempotent).toEqual([
      'executeAgent',
      'executeStoredWorkflow',
      'executeStoredWorkflowStream',
      'executeTool',
      'executeWorkflow',
      'executeWorkflowStream',
      'followupExecution',
      'runSchedule',
    ]);
    const paged = Object.values(OPERATIONS)
      .filter((o) => o.paged)
      .map((o) => o.id)
      .sort();
    expect(paged).toEqual(['listAgents', 'listCompanyItems', 'listExecutions', 'listSchedules', 'listTools', 'listTraces', 'listWorkflows', 'searchDiscovery']);
  });

  it('takes the security of the document when an operation has none, and spells x-oz-streaming as the core does', () => {
    const copy = structuredClone(doc) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const health = copy.paths['/health']!.get!;
    const execute = copy.paths['/v1/execute']!.post!;
    delete execute.security;
    const model = resourcesOf(copy) as { operations: { id: string; auth: string; streaming: string }[] };
    const byId = (id: string) => model.operations.find((o) => o.id === id)!;
    expect(byId('executeAgent').auth).toBe('bearer-or-api-key');
    expect(byId('getHealth').auth).toBe(OPERATIONS.getHealth.auth);
    expect(health.security).toEqual([]);
    expect(byId('executeAgent').streaming).toBe('optional');

    execute['x-oz-streaming'] = 'execute';
    expect(() => resourcesOf(copy)).toThrow(/x-oz-streaming must be one of optional, always, chat/);
  });
});
