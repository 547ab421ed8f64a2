/**
 * Command-line sign-in: `signIn()` listens on 127.0.0.1, gives the dashboard's authorize URL for the user to
 * open, receives the one-time code on its callback and exchanges it for a new platform key.
 *
 *   node --import tsx examples/sign-in.ts
 *
 * With OZ_DASHBOARD_URL set (and OZ_BASE_URL for the service), this signs in against that dashboard: open the
 * printed URL in a browser. Without it, the embedded Oz server plays the dashboard (`server.dashboardUrl`:
 * authorize, one-time codes valid 120 s, the token exchange) on a local port, and this file plays the user's
 * browser.
 */
import { Oz, signIn, SignInError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

// Without a real dashboard: an embedded Oz server on a local port, which also serves the dashboard's routes.
const server = process.env.OZ_DASHBOARD_URL ? undefined : createOzServer();
const listener = server ? await server.listen() : undefined;
if (listener) {
  process.env.OZ_DASHBOARD_URL = listener.dashboardUrl;
  process.env.OZ_BASE_URL = listener.url;
}

/** Shows the user the URL to open. Here, without a person, a fetch plays the browser that opens it. */
async function showToUser(url: string): Promise<void> {
  console.log(`Open this URL to sign in: ${url.replace(/state=[^&]+/, 'state=…')}`);
  // The dashboard signs the user in and redirects the browser to signIn's callback on 127.0.0.1.
  if (listener) await (await fetch(url)).text();
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

await listener?.close();
await server?.close();
