/**
 * Idempotency: every write carries an `x-trace-id`, re-sent on every retry, so a retried call never happens
 * twice. On an execute call it becomes the execution id; any other write's answer is kept and replayed. Pass your
 * own key to make a call safe to repeat.
 *
 *   node --import tsx examples/idempotency.ts
 *
 * The lost answer is injected with the embedded server's `faults`, so this example always uses it.
 */
import { DuplicateExecutionIdError, IdempotencyConflictError, Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

// #region key
// Your own key (for example derived from an order id): it becomes the execution id.
const sent = await oz.tools.execute('echo', { text: 'invoice 1042 sent' }, { idempotencyKey: 'exe_invoice-1042' });
console.log(sent.execution_id); // exe_invoice-1042
// #endregion

// #region replay
// Sending the same key again does not run the job again: the service answers 409 duplicate_execution_id.
try {
  await oz.tools.execute('echo', { text: 'invoice 1042 sent' }, { idempotencyKey: 'exe_invoice-1042' });
} catch (error) {
  if (!(error instanceof DuplicateExecutionIdError)) throw error;
  console.log(error.code); // duplicate_execution_id: the first run's result stays the one
  const first = await oz.executions.get('exe_invoice-1042');
  console.log(first.status, first.content); // succeeded invoice 1042 sent
}
// #endregion

// #region lost-answer
// The run happens but its answer is lost on the way back. The SDK retries with the same key, the service
// answers 409 (it already ran), and the SDK reads the first run's result: one run, one result, no error.
server.faults.add({ operationId: 'executeTool', type: 'lose' });
const charged = await oz.tools.execute('echo', { text: 'charge card 4242' }, { idempotencyKey: 'exe_charge-7' });
console.log(charged.content, charged.execution_id); // charge card 4242 exe_charge-7
const attempts = server.journal.filter({ path: '/v1/tools/echo/execute' }).slice(-2);
console.log(attempts.map((entry) => (entry.fault ? `${entry.status} (${entry.fault})` : `${entry.status}`))); // [ '200 (lose)', '409' ]
// #endregion

// #region safe-writes
// Any other write (items, schedules, workflows, deletes, cancels, connection links) is safe to retry too: its
// answer is lost, the SDK retries with the same x-trace-id, and the service replays the first answer.
server.faults.add({ operationId: 'createCompanyItem', type: 'lose' });
const { data: item, response } = await oz.companies.items.create('acme', { building: 'hq', title: 'Ship 1.0' }).withResponse();
console.log(item.title, response.headers.get('x-idempotent-replayed')); // Ship 1.0 true
const items = await oz.companies.items.list('acme', { limit: 100 });
console.log(items.data.filter((i) => i.title === 'Ship 1.0').length); // 1: written once

// The same key for another write is a mistake the service refuses (409, never retried): nothing is written.
try {
  await oz.companies.items.create('acme', { building: 'hq', title: 'Ship 1.1' }, { idempotencyKey: 'release-item' });
  await oz.companies.items.create('acme', { building: 'hq', title: 'Ship 2.0' }, { idempotencyKey: 'release-item' });
} catch (error) {
  if (!(error instanceof IdempotencyConflictError)) throw error;
  console.log(error.status, error.code); // 409 idempotency_conflict
}
// #endregion

await server.close();
