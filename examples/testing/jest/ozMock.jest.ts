// One test file, four jest setups (see the configs beside it): ts-jest and @swc/jest, CommonJS and ESM.
// `npm run test:jest` runs all four against the built package (dist/), as a user's project would.
import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import * as msw from 'msw';
import { setupServer } from 'msw/node';
import { Oz } from 'oz-sdk';
import { connectOzMock, createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
// Pass your own msw module: jest loads modules in a registry of its own (and cannot `require` under ESM).
const interceptor = setupServer(...server.handlers({ msw }));

// Requests to the run's oz-mock on 127.0.0.1 (the global setup's) pass through msw; any other is an error.
beforeAll(() => interceptor.listen({ onUnhandledRequest: (request, print) => void (new URL(request.url).hostname === '127.0.0.1' || print.error()) }));
afterEach(() => {
  expect(server.unused()).toEqual({ faults: [], stubs: [] }); // every fault and stub a test armed fired
  server.reset();
});
afterAll(async () => {
  interceptor.close();
  await server.close();
});

it('answers through msw (the global fetch)', async () => {
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, logLevel: 'off' });
  const run = await oz.tools.execute('echo', { text: 'from jest' });
  expect(run.content).toBe('from jest');
  expect(server.journal.last('executeTool')).toMatchObject({ mount: 'msw', account: 'demo', status: 200 });
});

it('answers what a stub says, in process', async () => {
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
  server.stubs.add({ operationId: 'listTools', answer: { status: 200, body: { data: [], next_cursor: null } }, times: 1 });
  expect((await oz.tools.list()).data).toEqual([]);
});

it('keeps a session to itself', async () => {
  const session = server.session();
  const oz = new Oz({ baseURL: server.url, apiKey: session.apiKey, fetch: server.fetch, logLevel: 'off' });
  await oz.companies.items.create('acme', { building: 'lab', title: 'only in the session' });
  expect(session.journal.count('createCompanyItem')).toBe(1);
  expect(server.journal.count('createCompanyItem')).toBe(0);
  await session.close();
});

it("takes a session of the run's oz-mock (globalSetup.cjs)", async () => {
  const mock = connectOzMock({ url: process.env.OZ_MOCK_URL!, adminToken: process.env.OZ_MOCK_ADMIN_TOKEN! });
  const session = await mock.session(); // in a real suite: in beforeAll, with session.reset() in beforeEach
  try {
    const oz = new Oz({ baseURL: session.url, apiKey: session.apiKey, maxRetries: 0, logLevel: 'off' });
    await mock.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' }); // the default session's
    expect((await oz.tools.list()).data.length).toBeGreaterThan(0); // the session is not touched by it
    expect(await session.journal.count({ operationId: 'listTools', account: 'demo' })).toBe(1);
    await mock.faults.clear();
  } finally {
    await session.close();
  }
});
