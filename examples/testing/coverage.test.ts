/**
 * The coverage gate: a suite that must exercise the answers of openapi.json its code handles. The server counts
 * every response it gave (`server.coverage()`); `expectCoverage()` fails the run naming each one missed.
 *
 *   npx vitest run examples/testing/coverage.test.ts
 */
// #region gate
import { afterAll, afterEach, expect, it } from 'vitest';
import { ConnectionRequiredError, Oz } from 'oz-sdk';
import { createOzServer, expectCoverage } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

afterEach(() => server.reset({ coverage: 'keep' })); // the counts add up over the whole file
afterAll(async () => {
  expectCoverage(server, { require: ['executeTool 200', 'executeTool 424 connection_required'] });
  await server.close();
});

it('looks a customer up once the CRM is connected', async () => {
  server.linkConnection('demo', 'crm');
  expect((await oz.tools.execute('crm_lookup', { query: 'ada@example.com' })).ok).toBe(true);
});

it('asks for the CRM connection when it is missing', async () => {
  await expect(oz.tools.execute('crm_lookup', { query: 'ada@example.com' })).rejects.toBeInstanceOf(ConnectionRequiredError);
});
// #endregion

// #region report
it('reads what the run exercised', async () => {
  await oz.tools.list();
  const listTools = server.coverage().operations.find((o) => o.operationId === 'listTools')!;
  expect(listTools.calls).toBe(1);
  expect(listTools.responses.find((r) => r.status === 200)).toEqual({
    status: 200,
    code: null,
    streamed: false,
    count: 1,
    by: { handler: 1, stub: 0, fault: 0, chaos: 0 },
    declared: true,
  });
});
// #endregion
