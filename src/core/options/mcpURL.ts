import { OzUsageError } from '../errors/errors.js';

/**
 * The MCP server's own address (`{mcp_url}`, which ends in `/v1`, unlike a base URL), checked where it is given: an
 * absolute http(s) URL. A value that is none is not quoted when it holds an `@` (a user name or password).
 */
export function checkedMCPURL(value: string, name = 'mcpURL'): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new OzUsageError(
      `${name}${value.includes('@') ? '' : ` ${JSON.stringify(value)}`} must be an absolute http:// or https:// address, for example "https://mcp.example.com/v1".`,
    );
  }
  return value;
}
