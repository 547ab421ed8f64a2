import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidParamsError, Oz } from '../../../src/index.js';

// A runtime that forbids code generation from strings, as Cloudflare Workers do: `new Function` throws. The server's
// validators are generated ahead of time (src/generated/) or interpreted (tools' input schemas), so it still runs.
function forbidCodeGeneration(): void {
  vi.stubGlobal('Function', function Function() {
    throw new EvalError('Code generation from strings disallowed for this context');
  });
}

/** A fresh copy of oz-sdk/testing, loaded while code generation is forbidden. */
async function freshTesting(): Promise<typeof import('../../../src/testing/index.js')> {
  vi.resetModules();
  return await import('../../../src/testing/index.js');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the embedded server on a runtime without new Function', () => {
  it('starts, answers, and checks requests and tool input schemas with the same 422s', async () => {
    forbidCodeGeneration();
    const testing = await freshTesting();
    const server = testing.createOzServer();
    server.addTool({
      name: 'sum',
      inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } } },
      required: ['a', 'b'],
      handler: (input) => JSON.stringify(input),
    });
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, maxRetries: 0 });
    try {
      // A generated body validator (openapi.json's ItemCreateRequest) and a generated parameter validator.
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const created = await server.fetch(
        new Request(`${server.url}/v1/companies/acme/items`, { method: 'POST', headers, body: JSON.stringify({ building: 'hq', title: 'T' }) }),
      );
      expect(created.status).toBe(201);
      const badBody = await server.fetch(
        new Request(`${server.url}/v1/companies/acme/items`, { method: 'POST', headers, body: JSON.stringify({ building: 'hq', title: 'T', kind: 'epic' }) }),
      );
      expect([badBody.status, ((await badBody.json()) as { error: { message: string } }).error.message]).toEqual([
        422,
        'kind must be one of: feature, bugfix, docs, research, content, task.',
      ]);
      const badQuery = await server.fetch(new Request(`${server.url}/v1/tools?limit=ten`, { headers }));
      expect([badQuery.status, ((await badQuery.json()) as { error: { message: string } }).error.message]).toEqual([
        422,
        'limit must be an integer from 1 to 100, in decimal digits.',
      ]);
      // An interpreted card schema (addTool's input schema).
      const missing = await oz.tools.execute('sum', { a: 1 }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(InvalidParamsError);
      expect([(missing as InvalidParamsError).error?.message, (missing as InvalidParamsError).missing]).toEqual(['Missing required field: b.', ['b']]);
      const wrongType = await oz.tools.execute('sum', { a: 1, b: 'two' }).catch((e: unknown) => e);
      expect((wrongType as InvalidParamsError).error?.message).toBe('b must be a number.');
      expect((await oz.tools.execute('echo', { text: 'hi' })).content).toContain('hi');
    } finally {
      vi.unstubAllGlobals();
      await server.close();
    }
  });
});
