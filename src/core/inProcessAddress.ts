/**
 * The domain of the embedded server's in-process addresses (`oz-sdk/testing`: `http://api.oz.test`, its MCP URL
 * `http://mcp.oz.test/v1`, its dashboard under the API's URL). `.test` is reserved (RFC 2606): nothing on a network
 * answers it, so a connection error there means the request went to the network instead of to the server.
 */
export const IN_PROCESS_DOMAIN = 'oz.test';

/** The embedded server's default API URL on the in-process and msw mounts. */
export const IN_PROCESS_API_URL = `http://api.${IN_PROCESS_DOMAIN}`;

/** The embedded server's default MCP URL (`{mcp_url}`) on the in-process and msw mounts. */
export const IN_PROCESS_MCP_URL = `http://mcp.${IN_PROCESS_DOMAIN}/v1`;

/**
 * What to say when a request to an in-process address failed to connect, or `null` for any other address: the
 * client was not given the embedded server's `fetch`, and no msw handlers caught the request.
 */
export function inProcessAddressHint(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host !== IN_PROCESS_DOMAIN && !host.endsWith(`.${IN_PROCESS_DOMAIN}`)) return null;
  return (
    `${new URL(url).origin} is the embedded Oz server's in-process address: nothing on the network answers it. ` +
    'Pass the server\'s fetch to the client (`new Oz({ baseURL: server.url, fetch: server.fetch })`), install its msw ' +
    'handlers (`setupServer(...server.handlers())`), or call `server.listen()` and use its URL.'
  );
}
