/**
 * Command-line sign-in: `signIn()` listens on 127.0.0.1, gives the dashboard's authorize URL for the user to
 * open, receives the one-time code on its callback and exchanges it for a new platform key.
 *
 *   node --import tsx examples/sign-in.ts
 *
 * With OZ_DASHBOARD_URL set (and OZ_BASE_URL for the service), this signs in against that dashboard: open the
 * printed URL in a browser. Without it, a small dashboard stand-in at the bottom of this file plays the dashboard
 * (its two routes, `/api/cli/authorize` and `/api/cli/token`) and the user's browser, and mints the key on an
 * embedded Oz server: the embedded server does not serve the dashboard's routes.
 */
import { createServer, type Server } from 'node:http';
import { Oz, signIn, SignInError } from 'oz-sdk';
import { createOzServer, type OzServer } from 'oz-sdk/testing';

// Without a real dashboard: the stand-in, and an embedded Oz server on a local port for the new key to open.
const server = process.env.OZ_DASHBOARD_URL ? undefined : createOzServer();
const dashboard = server ? await startDashboardStandIn(server) : undefined;
if (server && dashboard) {
  process.env.OZ_DASHBOARD_URL = dashboard.url;
  process.env.OZ_BASE_URL = (await server.listen()).url;
}

/** Shows the user the URL to open. With the stand-in, its "browser" opens it; a person does that in a real one. */
async function showToUser(url: string): Promise<void> {
  console.log(`Open this URL to sign in: ${url.replace(/state=[^&]+/, 'state=…')}`);
  await dashboard?.signInInBrowser(url);
}

// #region sign-in
try {
  const { key, name, expires_at, tier } = await signIn({
    dashboardURL: process.env.OZ_DASHBOARD_URL, // the default
    // Called with the URL the user must open. Default: print it to stderr; `openBrowser: true` also opens it.
    onAuthorizeURL: (url) => showToUser(url),
    timeout: 5 * 60_000, // the default
  });
  console.log(`Signed in: key "${name}" (${key.slice(0, 8)}…), tier ${tier}, expires ${expires_at ?? 'never'}`);

  // Store the key safely: it is shown this once. Then use it.
  const oz = new Oz({ apiKey: key }); // OZ_BASE_URL from the environment
  console.log('whoami:', (await oz.whoami()).key_label);
} catch (error) {
  if (error instanceof SignInError) console.error(`Sign-in failed (${error.reason}): ${error.message}`);
  throw error;
}
// #endregion

await dashboard?.close();
await server?.close();

/**
 * A dashboard stand-in: the two routes of the command-line sign-in, on 127.0.0.1. `authorize` signs the user in
 * at once and sends the browser to the SDK's callback with a one-time code; `token` exchanges a code (once,
 * within 120 s) for a new key of the demo account, created on the embedded server.
 */
async function startDashboardStandIn(oz: OzServer): Promise<{ url: string; signInInBrowser(url: string): Promise<void>; close(): Promise<void> }> {
  const codes = new Map<string, number>();
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/api/cli/authorize') {
      const code = crypto.randomUUID();
      codes.set(code, Date.now() + 120_000);
      const callback = `http://127.0.0.1:${url.searchParams.get('port')}/callback?code=${code}&state=${url.searchParams.get('state')}`;
      res.writeHead(302, { location: callback }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/cli/token') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { code } = JSON.parse(body) as { code: string };
        const validUntil = codes.get(code);
        codes.delete(code); // a code works once
        if (validUntil === undefined || validUntil < Date.now()) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'invalid_code', message: 'This code is unknown, used or expired.' } }));
          return;
        }
        const created = oz.addKey({ account: 'demo', name: 'cli sign-in', expiresInDays: 90 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key: created.key, name: created.name, expires_at: created.expires_at, tier: created.tier }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    // The browser: follows the authorize URL's redirect to the SDK's callback.
    signInInBrowser: async (url) => void (await (await fetch(url)).text()),
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
