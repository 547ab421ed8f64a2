/**
 * The suite's check of every embedded server's answers against openapi.json still reaches each test now that the
 * setup file loads only `test/support/violations.ts`: an answer made through `createTestServer` that the document
 * does not describe is found by `takeViolations`, the function the setup file (`ozServerSetup.ts`) calls after each
 * test, so such an answer fails the test that caused it.
 */
import { describe, expect, it } from 'vitest';
import { createTestServer } from '../support/ozServer.js';
import { takeViolations } from '../support/violations.js';

describe("the check of a test server's answers", () => {
  it('finds an answer with a status openapi.json does not list for its operation, and only once', async () => {
    const server = createTestServer();
    server.faults.add({ operationId: 'listTools', type: 'error', status: 418, code: 'internal_error' });
    const answer = await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(answer.status).toBe(418);
    const found = await takeViolations();
    expect(found).toEqual([
      expect.objectContaining({ operationId: 'listTools', status: 418, problems: expect.arrayContaining(['status 418 is not described for listTools']) }),
    ]);
    expect(await takeViolations()).toEqual([]);
    await server.close();
  });

  it('finds nothing in an answer the document describes', async () => {
    const server = createTestServer();
    const answer = await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(answer.status).toBe(200);
    expect(await takeViolations()).toEqual([]);
    await server.close();
  });
});
