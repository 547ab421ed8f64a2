/**
 * The first test of README's "Testing in five minutes": the embedded server in the test's own process, nothing
 * else to start. Self-contained, so a reader can copy it into an empty project as it is.
 */
// #region first-test
import { afterAll, afterEach, expect, it } from 'vitest';
import { Oz, RateLimitedError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer(); // the whole API in memory, seeded with a demo account
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

afterEach(() => server.reset()); // back to the seed: data, journal, faults
afterAll(() => server.close());

it('executes a tool', async () => {
  const result = await oz.tools.execute('echo', { text: 'hello' });
  expect(result.content).toBe('hello');
  expect(server.journal.last('executeTool')?.status).toBe(200);
});

it('gets a typed error for a fault the server was told to make', async () => {
  server.faults.add({ operationId: 'executeTool', type: 'error', status: 429, code: 'rate_limited', retryAfter: 3600 });
  await expect(oz.tools.execute('echo', { text: 'hello' })).rejects.toBeInstanceOf(RateLimitedError);
});
// #endregion
