/**
 * The control plane: the embedded server driven from outside its process (`/_oz/` on the API's port), here
 * through the typed client `connectOzMock()`; curl or any language does the same over HTTP.
 *
 *   node --import tsx examples/control-plane.ts
 */
import { readFileSync } from 'node:fs';
import { Oz, OzAPIError } from 'oz-sdk';
import { connectOzMock, createOzServer, OzMockError } from 'oz-sdk/testing';

// #region start
// What `npx oz-mock --fixtures examples/fixtures/shop.yaml --frozen-clock` runs: a server on a real port.
const server = createOzServer({
  fixtures: readFileSync(new URL('./fixtures/shop.yaml', import.meta.url), 'utf8'),
  clock: { start: '2026-11-22T09:30:00Z', frozen: true },
});
const listener = await server.listen();
// From here on, only the URL and the admin token are needed (oz-mock prints OZ_MOCK_ADMIN_TOKEN=...).
const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
const oz = new Oz({ baseURL: listener.url, apiKey: 'ozk_ShopExampleKey000000000000000001', maxRetries: 0, logLevel: 'off' });
// #endregion

// #region fixtures
console.log((await oz.tools.execute('quote', { product: 'gold' })).content); // Price of gold: 2000 USD
await mock.loadFixtures({ tools: [{ name: 'shout', required: ['text'], answer: '{{text}}!' }] });
console.log((await oz.tools.execute('shout', { text: 'hello' })).content); // hello!
try {
  await mock.loadFixtures({
    tools: [
      { name: 'ok', answer: 'fine' },
      { name: 'bad', answer: 42 as unknown as string },
    ],
  });
} catch (error) {
  if (!(error instanceof OzMockError)) throw error;
  console.log(error.status, error.message); // 422 tools[1].answer must be a string. Nothing of the document was added.
}
// #endregion

// #region faults
await mock.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 3 });
const limited = await oz.tools.execute('quote', { product: 'tea' }).catch((error: unknown) => error);
console.log(limited instanceof Error ? limited.constructor.name : limited); // RateLimitedError
const entry = await mock.journal.last('executeTool');
console.log(entry?.status, entry?.fault, entry?.headers.authorization); // 429 error Bearer ozk_Shop…
// #endregion

// #region clock
await mock.clock.advance(31 * 60_000); // past 10:00: the fixture's hourly schedule fires
await mock.idle();
const runs = await oz.executions.list();
const newest = runs.data[0]!; // newest first
console.log(`${newest.target}: ${newest.content}`); // quote: Price of tea: 10 USD
// #endregion

// #region state
const saved = await mock.exportState(); // { format: 'oz-mock-state', version: 1, ... }
await mock.reset(); // back to the seed and the fixture file: the shout tool and the run are gone
const gone = await oz.tools.execute('shout', { text: 'x' }).catch((error: unknown) => error);
console.log(gone instanceof OzAPIError ? gone.status : gone); // 404
await mock.importState(saved);
console.log((await oz.tools.execute('shout', { text: 'back' })).content); // back!
// #endregion

await listener.close();
await server.close();
