/**
 * A small app's suite under seeded chaos, then the coverage of what it exercised, as docs/chaos-and-coverage.md
 * shows them: the app (ticketTriage.ts) opens an item and runs a tool per ticket; 15 % of those requests fail with a
 * retryable error openapi.json declares or lose their answer, and the suite passes because the SDK retries them
 * safely. The journal shows no item and no run doubled; the coverage gate fails while a declared error is never
 * exercised, and passes once the suite covers it.
 *
 *   npx vitest run examples/testing/chaosAndCoverage.test.ts
 */
import { afterAll, expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { createOzServer, expectCoverage, OzCoverageError } from 'oz-sdk/testing';
import { triageTicket } from './ticketTriage.js';

const server = createOzServer();
const oz = new Oz({
  baseURL: server.url,
  apiKey: server.apiKey,
  fetch: server.fetch,
  logLevel: 'off',
  maxRetries: 3,
  retry: { initialDelayMs: 1, maxDelayMs: 5 },
});
afterAll(() => server.close());

it('triages every ticket once under seeded chaos', async () => {
  // #region chaos
  // 15 % of the app's writes fail with a retryable error the operation declares, or lose their answer after the
  // write: the same seed and the same requests give the same faults, so a failing run replays exactly.
  server.chaos.set({
    seed: 20261207,
    rules: [
      { match: { operationId: 'createCompanyItem' }, probability: 0.15, fault: { type: 'error', code: 'declared' } },
      { match: { operationId: 'executeTool' }, probability: 0.15, fault: { type: 'lose' } },
    ],
  });
  server.linkConnection('demo', 'crm');
  const subjects = Array.from({ length: 20 }, (_, n) => `Ticket ${n + 1}: the export is empty`);
  for (const subject of subjects) await triageTicket(oz, { email: 'ada@example.com', subject });

  // Chaos fired, yet each ticket has one item and one CRM run: the SDK's retries carried the same x-trace-id.
  const fired = server.journal.entries.filter((entry) => entry.chaos !== null);
  console.log([...new Set(fired.map((entry) => entry.fault))].sort()); // [ 'error', 'lose' ]
  const items = server.journal.filter('createCompanyItem').filter((entry) => entry.status === 201 && !entry.replayed);
  console.log(items.length, server.journal.filter('executeTool').filter((entry) => entry.status === 200 && !entry.replayed).length); // 20 20
  // #endregion
  expect(fired.length).toBeGreaterThan(0);
  expect(items.length).toBe(subjects.length);
  expect(new Set(items.map((entry) => JSON.parse(entry.body ?? '{}').title)).size).toBe(subjects.length);
});

it('reports what the suite exercised, and the gate names what it missed', async () => {
  // #region coverage
  // What the run exercised of openapi.json, and by what: the chaos rule's errors are counted as chaos.
  const created = server.coverage().operations.find((operation) => operation.operationId === 'createCompanyItem')!;
  console.log(created.responses.some((response) => response.count > 0 && response.by.chaos > 0)); // true

  // The suite never met a missing CRM connection: the gate fails, naming the declared answer it missed.
  try {
    expectCoverage(server, { require: ['createCompanyItem 201', 'executeTool 424 connection_required'] });
  } catch (error) {
    if (!(error instanceof OzCoverageError)) throw error;
    console.log(error.missed); // [ 'executeTool 424 connection_required' ]
  }

  // A test of that path (a session: a fresh world, whose demo account has no CRM connection) covers it, and the
  // gate passes: a session's requests count in the server's report too.
  const fresh = server.session();
  const client = new Oz({ baseURL: server.url, apiKey: fresh.apiKey, fetch: fresh.fetch, logLevel: 'off' });
  console.log((await triageTicket(client, { email: 'bob@example.com', subject: 'No CRM here' })).customer); // null
  expectCoverage(server, { require: ['createCompanyItem 201', 'executeTool 424 connection_required'] });
  await fresh.close();
  // #endregion
  expect(() => expectCoverage(server, { require: ['createCompanyItem 201', 'executeTool 424 connection_required'] })).not.toThrow();
});
