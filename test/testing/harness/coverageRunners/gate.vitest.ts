// A tiny suite under vitest, held by the coverage gate (run by ../coverageRunners.test.ts): it always lists the
// tools; with OZ_GATE_COVER=1 it also meets the crm tool's 424 the gate requires.
import { afterAll, expect, it } from 'vitest';
import { createOzServer, expectCoverage } from 'oz-sdk/testing';

const server = createOzServer();
const send = (path: string, init: RequestInit = {}) =>
  server.fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' } });

afterAll(() =>
  expectCoverage(server, {
    require: ['listTools 200', 'executeTool 424 connection_required', { operationId: 'getTool', status: 404, code: 'tool_not_found' }],
  }),
);

it('lists the tools', async () => {
  expect((await send('/v1/tools')).status).toBe(200);
});

it('meets the missing crm connection', async () => {
  if (process.env.OZ_GATE_COVER !== '1') return;
  expect((await send('/v1/tools/crm_lookup/execute', { method: 'POST', body: '{"query":"acme"}' })).status).toBe(424);
  expect((await send('/v1/tools/no_such_tool')).status).toBe(404);
});
