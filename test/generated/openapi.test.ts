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

describe('openapi.json', () => {
  it('is OpenAPI 3.1 for API 2.4.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.4.0');
  });

  it('gives every operation one method and path, none twice', () => {
    const keys = operations.map((o) => `${o.method} ${o.path}`);
    expect(operations.length).toBeGreaterThanOrEqual(40);
    expect(new Set(keys).size).toBe(keys.length);
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
    const schemesOf = (o: (typeof operations)[number]) => new Set((o.security ?? doc.security).flatMap((s) => Object.keys(s)));
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
