/**
 * Async runs: an execute call with `async: true` answers 202 with a pointer at once; wait for the run's end
 * with `pointer.wait()` or `oz.executions.wait()`, also from a pointer you stored and read back later.
 *
 *   node --import tsx examples/async-polling.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import yaml from 'js-yaml';
import { Oz, OzWaitTimeoutError, type AsyncPointer } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region pointer
const pointer = await oz.agents.execute({ agent: 'writer', user_request: 'a long report', async: true });
console.log(pointer); // { workflow_id: null, execution_id: 'exe_...', task_id: 'tsk_...', status: 'queued' }

// Polls GET /v1/executions/{id} (honouring the server's Retry-After) until the run ends.
const done = await pointer.wait({ timeout: 120_000, onProgress: (record) => console.log('status:', record.status) });
console.log(done.content); // Here is a draft for: a long report
// #endregion

// #region stored-pointer
// A pointer is plain data: store it (JSON, YAML, a database row), read it back, wait on it later.
const saved = yaml.dump(await oz.tools.execute('slow', { ms: 200, async: true }));
const restored = yaml.load(saved, { schema: yaml.JSON_SCHEMA }) as AsyncPointer;
const later = await oz.executions.wait(restored, { timeout: 60_000 });
console.log(later.content); // Waited 200 ms.
// #endregion

// #region record
// The record itself: status, content or error, cost and timestamps.
const record = await oz.executions.get(later.execution_id);
console.log(record.kind, record.target, record.status, record.cost_usd, record.finished_at);
// #endregion

// #region timeout
// A wait that runs out throws OzWaitTimeoutError; the run itself goes on (cancel it if you no longer need it).
const slow = await oz.tools.execute('slow', { ms: 60_000, async: true });
try {
  await slow.wait({ timeout: 300 });
} catch (error) {
  if (!(error instanceof OzWaitTimeoutError)) throw error;
  console.log(error.message);
  const cancelled = await oz.executions.cancel(slow.execution_id);
  console.log(cancelled.status); // cancelled
}
// #endregion

await server?.close();
