/**
 * A proxy stub, as docs/stubs.md shows it (this file runs under `npm test`; its region is that page's snippet). A
 * tiny `node:http` server stands in for the real service.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const realService = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ data: [{ name: 'real-tool', description: 'from the real service', input_schema: { type: 'object' } }], next_cursor: null }));
});
realService.listen(0, '127.0.0.1');
await once(realService, 'listening');
const realServiceUrl = `http://127.0.0.1:${(realService.address() as AddressInfo).port}`;

const server = createOzServer();
afterAll(async () => {
  await server.close();
  realService.close();
});

it('a proxy stub sends matching requests on to another service and journals them as proxied', async () => {
  const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off', maxRetries: 0 });
  // #region proxy
  // Everything else stays the embedded server's; tool listings come from the real service, with its own key
  // (without proxyApiKey the request's own Authorization goes on). The answer comes back as it came.
  server.stubs.add({ operationId: 'listTools', answer: { proxy: realServiceUrl, proxyApiKey: process.env.REAL_OZ_KEY ?? 'ozk_real' } });
  const tools = await oz.tools.list();
  console.log(tools.data[0]?.name); // real-tool
  console.log(server.journal.last('listTools')?.proxied); // http://127.0.0.1:PORT/v1/tools (never a key)
  // #endregion
  expect(tools.data.map((t) => t.name)).toEqual(['real-tool']);
  expect(server.journal.last('listTools')?.proxied).toBe(`${realServiceUrl}/v1/tools`);
});
