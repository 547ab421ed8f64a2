/**
 * The global setup of ozMockGlobalSetup.ts, run as vitest runs it: setup, then the tests (here through the
 * control plane's typed client, as any test file of the run would), then the teardown that frees the port.
 */
import { expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { connectOzMock } from 'oz-sdk/testing';
import setup from './ozMockGlobalSetup.js';

it('starts one server for the run, serves the test files, and frees its port at the end', async () => {
  const provided: Record<string, { url: string; adminToken: string; apiKey: string }> = {};
  const teardown = await setup({ provide: (key, value) => void (provided[key] = value) });

  // #region test-file
  // In a test file: const { url, adminToken, apiKey } = inject('ozMock');
  const { url, adminToken, apiKey } = provided.ozMock!;
  const mock = connectOzMock({ url, adminToken });
  const oz = new Oz({ baseURL: url, apiKey, maxRetries: 0, logLevel: 'off' });
  await mock.reset(); // each test file starts from the seed and the fixture file
  await mock.faults.add({ operationId: 'executeTool', type: 'error', status: 503, code: 'upstream_error' });
  await expect(oz.tools.execute('echo', { text: 'x' })).rejects.toMatchObject({ status: 503 });
  expect((await oz.tools.execute('echo', { text: 'x' })).content).toBe('x');
  // #endregion

  await teardown();
  await expect(fetch(`${url}/health`)).rejects.toThrow(/fetch failed/);
});
