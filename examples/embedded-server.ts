/**
 * The embedded Oz server (`oz-sdk/testing`): the whole API in memory, for your tests and local runs. Three
 * mounts (in process, msw, real sockets), a controllable clock, fault injection, a journal of requests,
 * snapshots, seeding helpers, and a hook on every answer (for example to validate it against openapi.json).
 *
 *   node --import tsx examples/embedded-server.ts
 *
 * This example is about the server itself, so it always uses it.
 */
import { InternalError, Oz, OzAPIError, OzTimeoutError } from 'oz-sdk';
import { createOzServer, OzMockError } from 'oz-sdk/testing';

// #region mounts
const server = createOzServer(); // seeded with the demo account: company acme, tools, agents, a workflow

// 1. In process: no socket, nothing global patched. Give the client the server's fetch.
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });

// 2. Real sockets on 127.0.0.1 (for other processes, curl, other languages): what `npx oz-mock` runs.
const listener = await server.listen(); // { url, mcpUrl, port, mcpPort, close() }
const overHttp = new Oz({ baseURL: listener.url, apiKey: server.apiKey });

// 3. msw: setupServer(...server.handlers()) intercepts the global fetch (see examples/testing/msw.test.ts).
// #endregion
console.log((await oz.tools.execute('echo', { text: 'in process' })).content, '|', (await overHttp.tools.execute('echo', { text: 'over HTTP' })).content);
await listener.close();

// #region seeding
// Seed what your test needs: accounts, keys, companies and buildings, tools, agents, workflows, connections.
server.addAccount({ name: 'initech', tier: 'pro', walletUsd: 5 });
const key = server.addKey({ account: 'initech', name: 'test key' });
server.addCompany({
  account: 'initech',
  slug: 'initech',
  buildings: [{ slug: 'press', kind: 'cloud', pipeline: [{ id: 'print', handler: (input) => `printed: ${input}` }] }],
});
server.addTool({
  name: 'weather',
  description: 'The weather in a city.',
  inputSchema: { properties: { city: { type: 'string' } } },
  required: ['city'],
  handler: ({ city }) => `Sunny in ${String(city)}.`,
});
server.addAgent({
  name: 'grumpy',
  handler: (input) => {
    if (String(input.user_request).includes('Monday')) throw new OzMockError(422, 'invalid_params', 'Not on a Monday.');
    return `Fine. ${String(input.user_request)}`;
  },
});
const initech = oz.withOptions({ apiKey: key.key });
console.log((await initech.tools.execute('weather', { city: 'Lyon' })).content); // Sunny in Lyon.
// #endregion

// #region clock
// A frozen clock moves only when told: timestamps, key expiry and revocation, schedules, item walks, async
// runs and the slow tool all follow it.
const frozen = createOzServer({ clock: { start: '2026-01-05T09:00:00Z', frozen: true } });
const ozFrozen = new Oz({ baseURL: frozen.url, apiKey: frozen.apiKey, fetch: frozen.fetch });
const item = await ozFrozen.companies.items.create('acme', { building: 'hq', title: 'Walks only when the clock moves' });
await frozen.clock.advance(10); // one step of the walk (10 ms by default): intake → plan
console.log((await ozFrozen.companies.items.get('acme', item.id)).step, frozen.clock.iso()); // plan 2026-01-05T09:00:00.010Z
await frozen.idle(); // advances a frozen clock from timer to timer until no work is left
console.log((await ozFrozen.companies.items.get('acme', item.id)).step, frozen.clock.iso()); // done 2026-01-05T09:00:00.040Z
// advance() fires every timer due in the window, in time order, at its own time, and what those timers start:
// an hourly schedule fires three times in three hours.
await ozFrozen.schedules.create({ name: 'hourly', cron: '0 * * * *', target: { kind: 'tool', name: 'echo' }, input: { text: 'tick' } });
await frozen.clock.advance(3 * 3_600_000);
const ticks: string[] = [];
for await (const run of ozFrozen.executions.list({ kind: 'tool' })) ticks.push(run.created_at.slice(11, 16));
console.log(ticks); // [ '12:00', '11:00', '10:00' ]
// #endregion
await frozen.close();

// #region faults
// Faults for the next matching requests: an error, a delay, a dropped connection, a cut stream, a lost answer.
server.faults.add({ operationId: 'executeTool', type: 'error', status: 500, code: 'internal_error', retryAfter: 0, times: 3 });
try {
  await oz.tools.execute('echo', { text: 'x' }, { maxRetries: 2 });
} catch (error) {
  if (!(error instanceof InternalError)) throw error;
}
server.faults.add({ path: '/v1/tools/echo/execute', type: 'delay', ms: 200 });
try {
  await oz.tools.execute('echo', { text: 'x' }, { timeout: 50, maxRetries: 0 });
} catch (error) {
  if (!(error instanceof OzTimeoutError)) throw error;
}
// #endregion

// #region journal
// Every request, for assertions: operation, path, headers, body, status, execution id, fault.
const attempts = server.journal.filter({ operationId: 'executeTool', status: 500 });
console.log(attempts.length, attempts[0]?.headers['x-trace-id'] === attempts[2]?.headers['x-trace-id']); // 3 true
console.log(server.journal.last('executeTool')?.fault); // delay
// #endregion

// #region snapshot
await server.idle(); // no run, walk or scheduled work in flight
const before = server.snapshot();
await oz.companies.items.create('acme', { building: 'lab', title: 'Temporary' });
server.restore(before); // back to the snapshot: the item is gone (restore again as often as you like)
let items = 0;
for await (const _ of oz.companies.items.list('acme', { building: 'lab' })) items++;
console.log(items); // 0
// server.reset() goes back to the seed instead.
// #endregion

// #region retention
// Bounded memory for a long-lived server: the earliest finished records beyond the limits are dropped.
const bounded = createOzServer({ retention: { executions: 2, items: Infinity }, journalLimit: 500 });
const ozBounded = new Oz({ baseURL: bounded.url, apiKey: bounded.apiKey, fetch: bounded.fetch });
const first = await ozBounded.tools.execute('echo', { text: 'first' });
for (const text of ['second', 'third']) await ozBounded.tools.execute('echo', { text });
const gone = await ozBounded.executions.get(first.execution_id).catch((error: unknown) => error);
console.log(gone instanceof OzAPIError ? gone.status : 'kept'); // 404, like an execution that never existed
// #endregion
await bounded.close();

// #region hook
// A hook on every answer (a clone): check status codes, headers, or validate bodies against openapi.json.
const statuses: number[] = [];
const stop = server.onResponse((event) => statuses.push(event.response.status));
await oz.agents.execute({ agent: 'grumpy', user_request: 'Tuesday report' });
await oz.agents.execute({ agent: 'grumpy', user_request: 'Monday report' }).catch(() => undefined);
stop();
console.log(statuses); // [ 200, 422 ]
// #endregion

await server.close();
