/**
 * Standalone functions (`oz-sdk/funcs`): one function per operation over a small client, `OzCore`, for programs
 * that bundle one or two calls (a bundler keeps only the functions imported).
 *
 *   node --import tsx examples/standalone-functions.ts
 *
 * With OZ_BASE_URL and OZ_API_KEY set, it talks to that Oz service. Without them it first starts an embedded Oz
 * server on a free local port and points those variables at it, as `npx oz-mock` would.
 */
import { createOzServer } from 'oz-sdk/testing';
const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
if (server) {
  const listener = await server.listen();
  process.env.OZ_BASE_URL = listener.url;
  process.env.OZ_API_KEY = server.apiKey;
}

// #region standalone-functions
import { OzCore, toolsExecute, toolsGet } from 'oz-sdk/funcs';
import { ToolNotFoundError } from 'oz-sdk';

// The same options as `new Oz(...)` (OZ_API_KEY and OZ_BASE_URL when not given), the same defaults.
const core = new OzCore({ logLevel: 'off' });

// `oz.tools.execute(tool, body, options)` is `toolsExecute(core, tool, body, options)`: same result, same errors.
const result = await toolsExecute(core, 'echo', { text: 'one function' });
console.log(result.ok, result.content); // true one function

const { error } = await toolsGet(core, 'no-such-tool').result();
console.log(error instanceof ToolNotFoundError, error?.code); // true tool_not_found
// #endregion

await server?.close();
