/**
 * Quickstart: create a work item, execute a tool, ask an agent.
 *
 *   node --import tsx examples/quickstart.ts
 *
 * With OZ_BASE_URL and OZ_API_KEY set, it talks to that Oz service. Without them it first starts an embedded Oz
 * server on a free local port and points those variables at it, as `npx oz-mock` would.
 */
// #region import
import { Oz } from 'oz-sdk';
// #endregion
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
if (server) {
  const listener = await server.listen();
  process.env.OZ_BASE_URL = listener.url;
  process.env.OZ_API_KEY = server.apiKey;
  process.env.OZ_MCP_URL = listener.mcpUrl;
}

// #region quickstart
const oz = new Oz(); // reads OZ_API_KEY and OZ_BASE_URL

// A work item enters building hq of company acme at its intake.
const item = await oz.companies.items.create('acme', { building: 'hq', title: 'Ship the release notes' });
console.log(item.id, item.step); // itm_... intake

// Execute a tool: the result envelope on the json wire.
const result = await oz.tools.execute('echo', { text: 'hello' });
console.log(result.content, result.execution_id); // hello exe_...

// Ask an agent.
const draft = await oz.agents.execute({ agent: 'writer', user_request: 'a tagline for a tea shop' });
console.log(draft.content); // Here is a draft for: a tagline for a tea shop
// #endregion

await server?.close();
