/**
 * Tests that read like the service: typed builders for stub answers, near misses of stubs and faults that never
 * fired, and `journal.verify()`, in process and over HTTP (the same calls through `connectOzMock()`).
 *
 *   node --import tsx examples/builders.ts
 */
import { Oz } from 'oz-sdk';
import { build, connectOzMock, createBuilders, createOzServer, OzVerificationError } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, maxRetries: 0, logLevel: 'off' });

// #region build
// One builder per resource schema of openapi.json; overrides are typed as the schema.
const parked = build.item({ campus: 'acme', building: 'hq', status: 'parked', step: 'parked', parked_reason: 'needs a human' });
console.log(parked.id.slice(0, 4), parked.status, parked.created_at); // itm_ parked 2026-11-21T12:00:00.000Z
// The same seed gives the same values (and ids unique within the set).
console.log(createBuilders({ seed: 7 }).execution().id === createBuilders({ seed: 7 }).execution().id); // true
try {
  build.item({ priority: 1.5 }); // valid TypeScript, but openapi.json wants an integer
} catch (error) {
  console.log((error as TypeError).message); // build.item(): not a valid Item of openapi.json at $.priority: ...
}
console.log(JSON.stringify(build.error('item_not_found', { message: 'No item itm_x.' })));
console.log(JSON.stringify(build.page([], 'cursor_2'))); // {"data":[],"next_cursor":"cursor_2"}
// #endregion

// #region stub
server.stubs.add({ operationId: 'getCompanyItem', match: { path: { id: parked.id } }, answer: { status: 200, body: parked } });
const fetched = await oz.companies.items.get('acme', parked.id);
console.log(JSON.stringify(fetched) === JSON.stringify(parked)); // true
// #endregion

// #region near-misses
server.reset();
server.stubs.add({ operationId: 'getCompanyItem', match: { path: { id: 'itm_x' } }, answer: { status: 200, body: build.item({ id: 'itm_x' }) } });
await oz.companies.items.get('acme', 'itm_y').catch(() => undefined);
const [stub] = server.unused().stubs;
console.log(JSON.stringify(stub?.nearMisses[0]?.differences)); // [{"path":"path.id","expected":"itm_x","actual":"itm_y"}]
// #endregion

// #region verify
try {
  server.journal.verify({ operationId: 'getCompanyItem', path: '/v1/companies/acme/items/itm_x' }, { times: 1 });
} catch (error) {
  if (!(error instanceof OzVerificationError)) throw error;
  console.log(error.message.split('\n')[0]); // Expected 1 request matching {...}, found 0.
  console.log(error.message.split('\n')[2]); //   1. GET /v1/companies/acme/items/itm_y (req_..., 404): path expected ..., got ...
}
// #endregion

// #region over-http
const listener = await server.listen();
const mock = connectOzMock({ url: listener.url, adminToken: server.adminToken! });
const unused = await mock.unused(); // GET /_oz/unused: the same near misses
console.log(unused.stubs[0]?.nearMisses[0]?.differences[0]?.path); // path.id
await mock.journal.verify('getCompanyItem', { times: 1 }); // POST /_oz/journal/verify: 200
const key = await mock.keys.add({ account: 'demo', apiKey: 'ozk_BuildersExampleKey00000000000001' }); // POST /_oz/keys
console.log(key.apiKey); // ozk_BuildersExampleKey00000000000001
// #endregion

await server.close();
