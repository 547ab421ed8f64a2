/**
 * Idempotency: every execute call carries an `x-trace-id` that becomes the execution id and is re-sent on every
 * retry, so a retried call never runs the job twice. Pass your own key to make a call safe to repeat.
 *
 *   node --import tsx examples/idempotency.ts
 *
 * The lost answer is injected with the embedded server's `faults`, so this example always uses it.
 */
import { DuplicateExecutionIdError, Oz } from 'oz-sdk';
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

await server.close();
