/**
 * The HTTP side of the client: `fetchOptions` (an undici dispatcher for a corporate proxy or other connection
 * timeouts), `defaultQuery` and a call's `query`, and the connector proxy's upstream query string.
 *
 *   node --import tsx examples/http-options.ts
 *
 * It starts an embedded Oz server on a free local port (real sockets, so the dispatcher carries the calls) and
 * links the demo account's crm connection, which the connector proxy needs.
 */
import { EnvHttpProxyAgent } from 'undici';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const listener = await server.listen();
process.env.OZ_BASE_URL = listener.url;
process.env.OZ_API_KEY = server.apiKey;
server.linkConnection('demo', 'crm');

// #region proxy-agent
// Every fetch gets these fields: here undici's EnvHttpProxyAgent (npm install undici), which goes through
// HTTPS_PROXY / HTTP_PROXY (hosts in NO_PROXY go direct), its timeouts raised to the SDK's 10-minute attempt.
const oz = new Oz({
  fetchOptions: { dispatcher: new EnvHttpProxyAgent({ headersTimeout: 600_000, bodyTimeout: 600_000 }) },
});
// #endregion

// #region default-query
// Query parameters on every call; a call's `query` adds to them (and wins), an operation's own (`limit`) win.
const tenant = oz.withOptions({ defaultQuery: { tenant: 'acme-eu' } });
// #endregion

// #region proxy-query
// The connector proxy passes a path through to the provider; `query` is its query string upstream. (The answer is
// the provider's; the embedded server's stand-in provider answers what it got.)
type Echo = { path: string; query: Record<string, string> };
const contact = (await tenant.proxy.get('crm', 'contacts/42', { query: { fields: 'name,email' } })) as Echo;
console.log(contact.path, contact.query); // /contacts/42 { tenant: 'acme-eu', fields: 'name,email' }

// A query string written into the path goes upstream as one (not encoded into the path as %3F).
const search = (await oz.proxy.get('crm', 'contacts?q=ada&limit=5')) as Echo;
console.log(search.path, search.query); // /contacts { q: 'ada', limit: '5' }
// #endregion

console.log('tenant on the wire:', server.journal.filter('proxyGet')[0]?.query); // ?tenant=acme-eu&fields=name%2Cemail
await listener.close();
await server.close();
