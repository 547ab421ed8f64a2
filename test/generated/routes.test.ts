import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/generated/operations.js';
import { compilePathTemplate, fillPathTemplate, matchPathTemplate } from '../../src/generated/pathTemplate.js';
import { findRoute, isRoutePath, ROUTE_BY_ID, ROUTES } from '../../src/generated/routes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('compilePathTemplate', () => {
  it('names the parameters in order and matches one segment each, or the rest for a slash-holding one', () => {
    const tools = compilePathTemplate('/v1/tools/{tool}/execute');
    expect(tools.params).toEqual(['tool']);
    expect(matchPathTemplate(tools, '/v1/tools/echo/execute')).toEqual({ tool: 'echo' });
    expect(matchPathTemplate(tools, '/v1/tools/a/b/execute')).toBeNull();
    expect(matchPathTemplate(tools, '/v1/tools//execute')).toBeNull();
    const proxy = compilePathTemplate('/v1/proxy/{provider}/{path}', ['path']);
    expect(matchPathTemplate(proxy, '/v1/proxy/github/repos/a/b')).toEqual({ provider: 'github', path: 'repos/a/b' });
  });

  it('takes the literal parts literally (a dot is a dot) and leaves escapes as the path spells them', () => {
    const doc = compilePathTemplate('/v1/openapi.json');
    expect(matchPathTemplate(doc, '/v1/openapi.json')).toEqual({});
    expect(matchPathTemplate(doc, '/v1/openapiXjson')).toBeNull();
    expect(matchPathTemplate(compilePathTemplate('/v1/items/{id}'), '/v1/items/a%2Fb')).toEqual({ id: 'a%2Fb' });
  });

  it('refuses a template that does not start with / or names a parameter twice', () => {
    expect(() => compilePathTemplate('v1/tools')).toThrow(new TypeError('A path template starts with /: "v1/tools"'));
    expect(() => compilePathTemplate('/v1/{a}/{a}')).toThrow(new TypeError('The path template /v1/{a}/{a} names {a} twice'));
  });

  it('fills a template with the values it is given', () => {
    const filled = fillPathTemplate(compilePathTemplate('/v1/companies/{campus}/items/{id}'), (name) => `<${name}>`);
    expect(filled).toBe('/v1/companies/<campus>/items/<id>');
  });
});

describe('the route table (src/generated/routes.ts)', () => {
  it('has one route per operation, with its method, its template and its slash-holding parameters', () => {
    expect(ROUTES.map((r) => r.operationId).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const route of ROUTES) {
      const op = OPERATIONS[route.operationId];
      expect([route.method, route.path.template], route.operationId).toEqual([op.method, op.path]);
      expect(route.path.slashParams, route.operationId).toEqual('slashParams' in op ? op.slashParams : []);
      expect(ROUTE_BY_ID[route.operationId]).toBe(route);
    }
  });

  it('finds every operation by its own path, a literal path before a parameter (/v1/workflows/execute)', () => {
    for (const route of ROUTES) {
      const path = fillPathTemplate(route.path, (name) => `x-${name}`);
      expect(findRoute(route.method, path)?.route.operationId, path).toBe(route.operationId);
    }
    expect(findRoute('POST', '/v1/workflows/execute')?.route.operationId).toBe('executeWorkflow');
    expect(findRoute('POST', '/v1/workflows/nightly/execute')).toEqual({ route: ROUTE_BY_ID.executeStoredWorkflow, params: { name: 'nightly' } });
  });

  it('finds nothing for another method, a trailing slash or an unknown path, and knows a path by any method', () => {
    expect(findRoute('DELETE', '/v1/tools')).toBeNull();
    expect(findRoute('GET', '/v1/tools/')).toBeNull();
    expect(findRoute('get', '/v1/tools')).toBeNull();
    expect(findRoute('GET', '/v1/nothing')).toBeNull();
    expect(isRoutePath('/v1/proxy/github/a/b')).toBe(true);
    expect(isRoutePath('/v1/nothing')).toBe(false);
  });

  it('is the one place of src/ that compiles a path template (the core fills one, and may import nothing of ours)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
    // What a template compiler writes: `{name}` read from a template into a pattern.
    const compilers = files(join(root, 'src'))
      .filter((file) => /\\\{\(\[\^\}\]\+\)\\\}|\\\{\[\^\}\]\+\\\}/.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length));
    // request/callURL.ts splits a template to fill it with a call's values (a URL), never to match a path.
    expect(compilers).toEqual(['src/core/request/callURL.ts', 'src/generated/pathTemplate.ts']);
  });
});
