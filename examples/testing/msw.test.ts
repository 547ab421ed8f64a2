/**
 * Testing your code with the embedded Oz server through msw: the server's handlers answer the global `fetch`,
 * so the client under test needs no `fetch` option (useful when your code makes its own client).
 *
 *   npx vitest run examples/testing/msw.test.ts
 */
// #region setup
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';
import { triageTicket } from './ticketTriage.js';

const server = createOzServer();
const msw = setupServer(...server.handlers()); // intercepts server.url and server.mcpUrl

beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.reset());
afterAll(async () => {
  msw.close();
  await server.close();
});
// #endregion

// #region test
it('triages a ticket through the global fetch', async () => {
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey }); // no fetch option: msw answers
  server.linkConnection('demo', 'crm');

  const triage = await triageTicket(oz, { email: 'grace@example.com', subject: 'Login loop' });

  expect(triage.customer).toContain('grace@example.com');
  expect(server.journal.last('createCompanyItem')).toMatchObject({ mount: 'msw', status: 201 });
});
// #endregion
