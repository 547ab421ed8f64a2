/** A permanent error (openapi.json's `x-oz-permanent`) carries `x-should-retry: false`, and the SDK does not retry it. */
import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { NotEnabledError, Oz } from '../../../src/index.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();
const codes = (openapi as unknown as { components: { schemas: { ErrorCode: { oneOf: Array<{ const: string; 'x-oz-permanent'?: boolean }> } } } }).components
  .schemas.ErrorCode.oneOf;

describe('permanent errors', () => {
  it('openapi.json marks not_enabled permanent, and no code the client retries for a passing reason', () => {
    expect(codes.filter((c) => c['x-oz-permanent']).map((c) => c.const)).toEqual(['not_enabled']);
  });

  it('503 not_enabled answers x-should-retry: false and is not retried (one request, at once)', async () => {
    const server = servers.create();
    const oz = new Oz({ apiKey: server.keys.otherApiKey, baseURL: server.url, fetch: server.fetch });
    const error = await oz.companies.items.list('globex').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(NotEnabledError);
    expect(server.journal.count('listCompanyItems')).toBe(1);
    const raw = await server.fetch(`${server.url}/v1/companies/globex/items`, { headers: { authorization: `Bearer ${server.keys.otherApiKey}` } });
    expect(raw.status).toBe(503);
    expect(raw.headers.get('x-should-retry')).toBe('false');
  });

  it("a transient error (a fault's 500 internal_error) carries no such header and is retried", async () => {
    const server = servers.create();
    server.faults.add({ operationId: 'listTools', type: 'error', status: 500, code: 'internal_error', retryAfter: 0 });
    const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch });
    await oz.tools.list();
    expect(server.journal.count('listTools')).toBe(2);
    expect(server.journal.entries[0]!.status).toBe(500);
    expect(server.journal.entries[0]!.fault).toBe('error');
  });

  it('a stub answering a permanent code carries the header too', async () => {
    const server = servers.create();
    server.stubs.add({ operationId: 'listCompanyItems', answer: { status: 503, body: { error: { code: 'not_enabled', message: 'Not on this tier.' } } } });
    const raw = await server.fetch(`${server.url}/v1/companies/acme/items`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(raw.headers.get('x-should-retry')).toBe('false');
  });
});
