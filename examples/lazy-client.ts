/**
 * Making the client where a build step may import your module without your environment (a Next.js route, a
 * serverless handler): make it on first use, not at module scope. `new Oz()` with no `baseURL` and no
 * OZ_BASE_URL throws a usage error at once, and `next build` imports every route to collect its settings.
 *
 *   node --import tsx examples/lazy-client.ts
 *
 * It starts an embedded Oz server on a free local port and sets OZ_BASE_URL and OZ_API_KEY to it, as the
 * environment of a deployment would, after the module has been loaded.
 */
import { Oz, OzUsageError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

delete process.env.OZ_BASE_URL; // as during `next build`, where the deployment's variables are not set
delete process.env.OZ_API_KEY;

// #region lazy-client
// A Next.js route handler: the client is made by the first request, never when the module is imported.
let client: Oz | undefined;
function oz(): Oz {
  return (client ??= new Oz()); // reads OZ_API_KEY and OZ_BASE_URL
}

export async function POST(request: Request): Promise<Response> {
  const { text } = (await request.json()) as { text: string };
  const result = await oz().tools.execute('echo', { text });
  return Response.json({ content: result.content });
}
// #endregion

// What the build step does: import the module (above), with no environment. A client at module scope throws.
const atModuleScope = (() => {
  try {
    return new Oz();
  } catch (error) {
    return error;
  }
})();
console.log(`at module scope: ${atModuleScope instanceof OzUsageError ? atModuleScope.message : 'made'}`);

// At run time the deployment's environment is set, and the first request makes the client.
const server = createOzServer();
const listener = await server.listen();
process.env.OZ_BASE_URL = listener.url;
process.env.OZ_API_KEY = server.apiKey;
const answer = await POST(new Request('http://localhost/api/draft', { method: 'POST', body: JSON.stringify({ text: 'lazy' }) }));
console.log(`first request: ${answer.status} ${JSON.stringify(await answer.json())}`);
await server.close();
