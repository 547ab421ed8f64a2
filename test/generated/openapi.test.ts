import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = JSON.parse(readFileSync(`${root}/openapi.json`, 'utf8')) as {
  openapi: string;
  info: { version: string };
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, { operationId: string; tags: string[]; security?: Array<Record<string, string[]>>; 'x-oz-method': string }>>;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, ...item[m]! })),
);

/** The operations table of the contract, read from ../shared/spec/contract.md: `METHOD /path` pairs. */
function contractOperations(): Array<{ method: string; path: string }> {
  const text = readFileSync(`${root}/../shared/spec/contract.md`, 'utf8');
  const table = text.slice(text.indexOf('## Operations'), text.indexOf('## Streams'));
  const rows = table.split('\n').filter((l) => /^\| [a-z]+ \|/.test(l) && !l.startsWith('| tag'));
  const found: Array<{ method: string; path: string }> = [];
  for (const row of rows) {
    const cell = row.split('|')[2]!;
    for (const m of cell.matchAll(/\b((?:GET|POST|PUT|PATCH|DELETE|any)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/[^\s,`]*)/g)) {
      const methods = m[1] === 'any' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : m[1]!.split('/');
      for (const method of methods) found.push({ method, path: m[2]! });
    }
  }
  return found;
}

describe('openapi.json', () => {
  it('is OpenAPI 3.1 for API 2.4.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.4.0');
  });

  it('describes every operation of the contract table', () => {
    const contract = contractOperations();
    expect(contract.length).toBeGreaterThanOrEqual(40);
    const missing = contract.filter((c) => !operations.some((o) => o.method === c.method && o.path === c.path));
    expect(missing).toEqual([]);
  });

  it('gives every operation a unique operationId, one tag and an SDK method name', () => {
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) {
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(op['x-oz-method'], op.operationId).toMatch(/^[a-z]+(\.[a-z]+)*\.[a-z][A-Za-z]*$/);
    }
    const methods = operations.map((o) => o['x-oz-method']);
    expect(new Set(methods).size).toBe(methods.length);
  });

  it('applies the security schemes per plane as the spec says', () => {
    const schemesOf = (o: (typeof operations)[number]) =>
      new Set((o.security ?? doc.security).flatMap((s) => Object.keys(s)));
    for (const op of operations) {
      const schemes = schemesOf(op);
      if (op.path === '/health' || op.path === '/v1/openapi.json') expect(schemes.size, op.path).toBe(0);
      else if (/^\/v1\/(models|chat|embeddings)/.test(op.path)) expect([...schemes], op.path).toEqual(['bearerAuth']);
      else if (op.path.startsWith('/v1/companies')) expect([...schemes], op.path).toEqual(['bearerAuth']);
      else if (op.path.startsWith('/v1/proxy')) expect([...schemes], op.path).toEqual(['bearerAuth']);
      else expect([...schemes].sort(), op.path).toEqual(['apiKeyHeader', 'bearerAuth']);
    }
  });
});
