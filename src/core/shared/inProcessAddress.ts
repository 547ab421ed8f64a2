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

// The causes of a fetch that reached no host (undici's TypeError carries the system error as its cause). A
// connection that opened and then dropped (the embedded server's own `drop` fault) is not one of them.
const NO_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * What to say when a fetch to an in-process address reached no host (`cause` is what fetch threw), or `null` for
 * any other address or failure: the client was not given the embedded server's `fetch`, and no msw handlers caught
 * the request.
 */
export function inProcessAddressMiss(url: string, cause: unknown): string | null {
  const code = (cause as { cause?: { code?: unknown } } | null | undefined)?.cause?.code;
  if (!(cause instanceof TypeError) || typeof code !== 'string' || !NO_HOST.has(code)) return null;
  return inProcessAddressHint(url);
}

/** What to say about a failed request to an in-process address, or `null` for any other address. */
function inProcessAddressHint(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host !== IN_PROCESS_DOMAIN && !host.endsWith(`.${IN_PROCESS_DOMAIN}`)) return null;
  return (
    `${new URL(url).origin} is the embedded Oz server's in-process address: nothing on the network answers it. ` +
    "Pass the server's fetch to the client (`new Oz({ baseURL: server.url, fetch: server.fetch })`), install its msw " +
    'handlers (`setupServer(...server.handlers())`), or call `server.listen()` and use its URL.'
  );
}
