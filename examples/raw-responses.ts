/**
 * Raw responses: `asResponse()` hands over the `Response` with its body unread (pipe it, read it your way);
 * `withResponse()` gives the parsed data with the `Response` and its ids.
 *
 *   node --import tsx examples/raw-responses.ts
 *
 * With OZ_BASE_URL and OZ_API_KEY set, it talks to that Oz service. Without them it first starts an embedded Oz
 * server on a free local port and points those variables at it, as `npx oz-mock` would.
 */
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
if (server) {
  const listener = await server.listen();
  process.env.OZ_BASE_URL = listener.url;
  process.env.OZ_API_KEY = server.apiKey;
}
const oz = new Oz({ logLevel: 'off' });

// #region raw-responses
// asResponse(): the answer's status and headers, its body left unread for you (an error status still throws).
const response = await oz.tools.execute('echo', { text: 'read it yourself' }, { format: 'text' }).asResponse();
console.log(response.status, response.headers.get('content-type'), response.bodyUsed); // 200 text/plain; charset=utf-8 false
console.log(await response.text()); // read it yourself

// withResponse(): the parsed data, and the Response (its body read) with the ids the answer carries.
const { data, requestId, executionId } = await oz.tools.execute('echo', { text: 'parsed' }).withResponse();
console.log(data.content, requestId?.startsWith('req_'), executionId === data.execution_id); // parsed true true
// #endregion

await server?.close();
