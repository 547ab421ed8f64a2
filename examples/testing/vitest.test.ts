/**
 * Testing your code with the embedded Oz server under vitest, in process: no socket, no global patching, one
 * isolated server per test file, back to its seed after each test.
 *
 *   npx vitest run examples/testing/vitest.test.ts
 */
// #region setup
import { afterAll, afterEach, expect, it } from 'vitest';
import { Oz, UpstreamError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';
import { triageTicket } from './ticketTriage.js';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

afterEach(() => server.reset()); // back to the demo seed: data, journal, faults
afterAll(() => server.close());
// #endregion

// #region test-connected
it('opens an item and looks the customer up when the CRM is connected', async () => {
  server.linkConnection('demo', 'crm');
  const triage = await triageTicket(oz, { email: 'ada@example.com', subject: 'Export fails' });

  expect(triage.customer).toContain('ada@example.com');
  expect(server.items.get(triage.itemId)).toMatchObject({ campus: 'acme', building: 'hq', kind: 'bugfix' });
  expect(JSON.parse(server.journal.last('executeTool')!.body!)).toEqual({ query: 'ada@example.com' });
});
// #endregion

it('goes on without the customer when the account has no CRM connection', async () => {
  const triage = await triageTicket(oz, { email: 'ada@example.com', subject: 'Export fails' });

  expect(triage.customer).toBeNull();
  expect(server.journal.last('executeTool')?.status).toBe(424);
});

// #region test-fault
it('survives one 502 from the company service (the SDK retries it)', async () => {
  server.faults.add({ operationId: 'createCompanyItem', type: 'error', status: 502, code: 'upstream_error', retryAfter: 0 });
  const triage = await triageTicket(oz, { email: 'ada@example.com', subject: 'Export fails' });

  expect(triage.itemId).toMatch(/^itm_/);
  expect(server.journal.filter('createCompanyItem').map((entry) => entry.status)).toEqual([502, 201]);
});
// #endregion

it('fails with a typed error when the company service stays down', async () => {
  server.faults.add({ operationId: 'createCompanyItem', type: 'error', status: 502, code: 'upstream_error', retryAfter: 0, times: 3 });

  await expect(triageTicket(oz, { email: 'ada@example.com', subject: 'Export fails' })).rejects.toBeInstanceOf(UpstreamError);
});
