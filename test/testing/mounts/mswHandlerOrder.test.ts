import { setupServer } from 'msw/node';
import * as msw from 'msw';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../support/ozServer.js';

// msw parses a request once per handler it tries (its cookies, its URL against a pattern compiled again): the
// mount puts the API's handler first, and only one handler when the MCP server shares the API's origin.
const server = createTestServer();
afterAll(async () => {
  await server.close();
});

const header = (handler: msw.HttpHandler) => String(handler.info.path);

describe("the msw mount's handlers", () => {
  it("lists the API's handler first, then the MCP server's on its own origin", () => {
    const handlers = server.handlers();
    expect(handlers.map(header)).toEqual([`${server.url}/*`, `${new URL(server.mcpUrl).origin}/*`]);
  });

  it("is one handler when the MCP URL is on the API's origin, which serves the MCP server there", async () => {
    const mcpUrl = `${new URL(server.url).origin}${new URL(server.mcpUrl).pathname}`;
    const handlers = server.handlers({ msw, mcpUrl });
    expect(handlers.map(header)).toEqual([`${new URL(server.url).origin}/*`]);
    const intercept = setupServer(...handlers);
    intercept.listen({ onUnhandledRequest: 'error' });
    try {
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const mcp = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      expect(mcp.status).toBe(200);
      expect(server.journal.last('mcpRequest')).toMatchObject({ mount: 'msw', surface: 'mcp', status: 200 });
    } finally {
      intercept.close();
    }
  });
});
