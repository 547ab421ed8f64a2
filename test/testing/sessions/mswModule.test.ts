/** server.handlers({ msw }): the user's own msw module (what jest needs), and a wrong one refused. */
import * as msw from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, expect, it } from 'vitest';
import { createOzServer } from '../../../src/testing/index.js';

const server = createOzServer({ url: 'http://msw-module.oz.test', mcpUrl: 'http://mcp.msw-module.oz.test/v1' });
afterAll(() => server.close());

it('serves through handlers made with the msw module given', async () => {
  let made = 0;
  const all: typeof msw.http.all = (...args) => (made++, msw.http.all(...args));
  const counting = { http: { all } };
  const interceptor = setupServer(...server.handlers({ msw: counting }));
  interceptor.listen({ onUnhandledRequest: 'error' });
  try {
    const res = await fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(200);
    expect(made).toBe(2); // the API's origin and the MCP server's
    expect(server.journal.last('listTools')?.mount).toBe('msw');
  } finally {
    interceptor.close();
  }
});

it('refuses something that is not the msw module', () => {
  expect(() => server.handlers({ msw: {} as never })).toThrow(/msw must be the msw module/);
});
