/**
 * Typed calls to any path of openapi.json with `oz.raw` (openapi-fetch's API over the SDK's transport), for
 * routes the resource classes do not wrap or code written against openapi-typescript.
 *
 *   node --import tsx examples/raw-calls.ts
 *
 * With OZ_BASE_URL and OZ_API_KEY set, it talks to that Oz service; without them, to an embedded server in process.
 */
import { Oz, ToolNotFoundError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region raw
// Paths, parameters, bodies and answers are typed by openapi.json; the key, retries, trace ids and spans are the
// client's. A non-2xx answer throws its typed error, so `data` is the answer.
const { data: tool } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
console.log(tool?.name, tool?.required); // echo [ 'text' ]

const { data: result, response } = await oz.raw.POST('/v1/tools/{tool}/execute', {
  params: { path: { tool: 'echo' } },
  body: { text: 'raw call' },
});
// The type has both answers of the route: 200 (the result) and 202 (an async pointer, with async: true).
if (result && 'content' in result) console.log(result.content, response.headers.get('x-execution-id') === result.execution_id); // raw call true

// Other wires: ask with ?format= and read the body as text.
const { data: markdown } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'sum' }, query: { format: 'markdown' } }, parseAs: 'text' });
console.log(markdown?.split('\n')[0]); // name: sum

try {
  await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'no-such-tool' } } });
} catch (error) {
  if (!(error instanceof ToolNotFoundError)) throw error;
  console.log(error.status, error.code); // 404 tool_not_found
}
// #endregion
await server?.close();
