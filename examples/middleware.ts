/**
 * Middleware: your own code in every attempt of every request the client makes (resource methods, the polls of
 * `wait()`, the recovery of a lost answer, `oz.raw`, MCP), inside the retry loop, with a standard Request and
 * Response.
 *
 *   node --import tsx examples/middleware.ts
 *
 * The retried call here is made to fail by the embedded server's `faults`, so this example always uses it.
 */
import { Oz, OzMiddlewareError, type Middleware } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();

// #region middleware
// Each attempt: its operation, attempt number (0 first) and status. A middleware changes the request by passing on
// a new one, and may observe the answer (a clone: the caller's copy stays unread, streams too).
const timing: Middleware = async (request, next, context) => {
  const started = performance.now();
  const response = await next(new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-team': 'billing' } }));
  console.log(`${context.operationId} attempt ${context.attempt}: ${response.status} in ${(performance.now() - started).toFixed(0)} ms`);
  return response;
};
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off', middleware: [timing] });

// The middleware sees every attempt: two 500s, then the answer (the same x-trace-id on each).
server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 2 });
console.log((await oz.tools.execute('echo', { text: 'seen three times' })).content);
// executeTool attempt 0: 500 in 2 ms
// executeTool attempt 1: 500 in 1 ms
// executeTool attempt 2: 200 in 1 ms
// seen three times
console.log(server.journal.filter('executeTool').at(-1)!.headers['x-team']); // billing

// A call's own middleware runs inside the client's; one that answers without calling next() sends nothing.
const cached: Middleware = async () => Response.json({ name: 'echo', description: 'from my cache' });
const tool = await oz.tools.get('echo', { middleware: [cached] }); // getTool attempt 0: 200 in 0 ms
console.log(tool.description); // from my cache
// #endregion

// #region middleware-errors
// What a middleware throws reaches the caller typed: an OzError as it is, anything else as OzMiddlewareError.
const policy: Middleware = async (request, next) => {
  if (request.method === 'DELETE') throw new Error('deletes are off today');
  return next(request);
};
try {
  await oz.withOptions({ middleware: [policy] }).workflows.delete('draft-and-review');
} catch (error) {
  if (!(error instanceof OzMiddlewareError)) throw error;
  console.log(error.name, error.message); // OzMiddlewareError middleware[1] threw: deletes are off today
}
// #endregion

await server.close();
