import { readBodyText } from '../wire/bodyText.js';
import type { ServerClock } from '../time/clock.js';
import type { Connection } from '../wire/connection.js';
import { OzMockError } from '../contract/errors.js';
import { randomAlnum } from '../support/ids.js';
import { urlPath } from '../support/requestUrl.js';
import type { KeyExpiryDays, Store } from '../state/store.js';
import { dashboardFailure as failure, KeysTab } from './keysTab.js';

/** The path, under the server's URL, where the embedded server plays the dashboard. */
export const DASHBOARD_PATH = '/dashboard';

/** How long a one-time sign-in code works after the dashboard made it, on the server's clock. */
export const DASHBOARD_CODE_VALIDITY_MS = 120_000;

/** How many live sign-in codes the dashboard keeps at most: past it the oldest are dropped first. */
export const DASHBOARD_MAX_CODES = 1_000;

/**
 * The dashboard's part of the command-line sign-in, played by the embedded server at
 * {@link OzServer.dashboardUrl} (`{url}/dashboard`, on every mount). It is another service than the API:
 * its routes are not in openapi.json, not journaled and not seen by `onResponse` listeners.
 *
 * - `GET {dashboard}/api/cli/authorize?port=&state=`: the user "signs in" at once as the account chosen with
 *   {@link OzDashboard.signInAs} (default `demo`); the dashboard makes a one-time code and answers 302 to
 *   `http://127.0.0.1:{port}/callback?code=&state=`. After `signInAs(null)` the user refuses: 302 to
 *   `http://127.0.0.1:{port}/callback?error=access_denied&state=`.
 * - `POST {dashboard}/api/cli/token` with `{"code": "..."}`: answers 200 `{key, name, expires_at, tier}`, a
 *   new platform key of the account (no fences; only its hash is kept). A code works once, for 120 s on
 *   {@link OzServer.clock}; then it is forgotten, and at most 1,000 live codes are kept (the oldest go first).
 *
 * Errors answer 400 with `{"error": {code, message}}`:
 * - `invalid_request`: authorize without a port (1..65535) or state; a token body that is not JSON `{code}`
 *   (415 when its `Content-Type` is not `application/json`).
 * - `invalid_code`: a code the dashboard never made.
 * - `code_used`: a code exchanged before (a code works once).
 * - `code_expired`: a code older than 120 s.
 *
 * - `{dashboard}/keys`: the keys tab for the signed-in account (see `keysTab.ts`): list, create, revoke.
 *
 * Other methods or paths under the dashboard answer 404 `not_found` in the same envelope. A request to the
 * sign-in routes with an `Origin` header (a web page's `fetch`) answers 403 `forbidden_origin`; the keys tab's
 * writes answer it unless they come from its own page. The dashboard sends no CORS headers. A body over
 * `maxBodyBytes` answers 413 `payload_too_large`.
 */
export interface OzDashboard {
  /** The dashboard's URL on the in-process and msw mounts (`{url}/dashboard`); `listen()` gives its own. */
  readonly url: string;
  /**
   * Who signs in at the next authorize: an account name (default `demo`), or `null` for a user who refuses
   * (the browser goes to the callback with `error=access_denied`).
   */
  signInAs(account: string | null): void;
  /** The expiry of the keys the token exchange creates, in days, or `null` for never. Default 90. */
  keyExpiryDays: KeyExpiryDays | null;
  /** The name of the keys the token exchange creates. Default `"cli sign-in"`. */
  keyName: string;
}

interface CodeRecord {
  readonly account: string;
  readonly expiresAt: number;
  used: boolean;
}

/** The dashboard's state and its request handler. */
export class Dashboard implements OzDashboard {
  keyExpiryDays: KeyExpiryDays | null = 90;
  keyName = 'cli sign-in';
  #account: string | null = 'demo';
  readonly #codes = new Map<string, CodeRecord>();

  readonly #store: () => Store;
  readonly #clock: ServerClock;
  readonly #maxBodyBytes: number;
  readonly #keys: KeysTab;

  /** `keyCacheMs`: how long a revoked key keeps working (the server's settings, read at each revoke). */
  constructor(
    readonly url: string,
    store: () => Store,
    clock: ServerClock,
    maxBodyBytes: number,
    keyCacheMs: () => number,
  ) {
    this.#store = store;
    this.#clock = clock;
    this.#maxBodyBytes = maxBodyBytes;
    this.#keys = new KeysTab({ store, clock, keyCacheMs, account: () => this.#account }, DASHBOARD_PATH, maxBodyBytes);
  }

  signInAs(account: string | null): void {
    if (account !== null) this.#store().account(account); // throws for an unknown account, now rather than later
    this.#account = account;
  }

  /** Forgets codes and choices: back to signing in `demo`. */
  reset(): void {
    this.#codes.clear();
    this.#account = 'demo';
    this.keyExpiryDays = 90;
    this.keyName = 'cli sign-in';
  }

  /** Whether a request's path is the dashboard's (the API's URL, so the MCP surface never is). */
  owns(request: Request, conn: Connection): boolean {
    if (conn.surface !== 'api') return false;
    const path = urlPath(request.url);
    return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
  }

  async handle(request: Request, conn: Connection): Promise<Response> {
    const url = new URL(request.url);
    const route = url.pathname.slice(DASHBOARD_PATH.length);
    // The keys tab has rules of its own for writes from its page (Origin and anti-forgery token).
    if (this.#keys.owns(route)) return this.#keys.handle(request, conn, route);
    const isAuthorize = request.method === 'GET' && route === '/api/cli/authorize';
    const isToken = request.method === 'POST' && route === '/api/cli/token';
    if (!isAuthorize && !isToken) return failure(404, 'not_found', `The dashboard has no ${request.method} ${route || '/'}.`);
    const fromPage = pageRequest(conn);
    if (fromPage) return failure(403, 'forbidden_origin', fromPage);
    if (isAuthorize) return this.#authorize(url);
    if (!/^application\/json\s*(;|$)/i.test(conn.reader.header('content-type') ?? '')) {
      return failure(415, 'invalid_request', 'The body must be JSON {"code": "..."} sent as Content-Type: application/json.');
    }
    try {
      return this.#token(await readBodyText(conn.reader, this.#maxBodyBytes));
    } catch (error) {
      if (error instanceof OzMockError) return failure(error.status, error.code, error.message);
      throw error;
    }
  }

  #authorize(url: URL): Response {
    const portText = url.searchParams.get('port') ?? '';
    const port = /^\d{1,5}$/.test(portText) ? Number(portText) : 0;
    const state = url.searchParams.get('state');
    if (port < 1 || port > 65535) return failure(400, 'invalid_request', 'The query parameter port must be a port number (1..65535).');
    if (!state) return failure(400, 'invalid_request', 'The query parameter state is required.');
    const callback = new URL(`http://127.0.0.1:${port}/callback`);
    if (this.#account === null) {
      callback.searchParams.set('error', 'access_denied');
    } else {
      const code = randomAlnum(32);
      this.#forgetOldCodes();
      this.#codes.set(code, { account: this.#account, expiresAt: this.#clock.now() + DASHBOARD_CODE_VALIDITY_MS, used: false });
      callback.searchParams.set('code', code);
    }
    callback.searchParams.set('state', state);
    return new Response(null, { status: 302, headers: { location: callback.href, 'cache-control': 'no-store' } });
  }

  /**
   * Drops the codes past their 120 s, and the oldest beyond {@link DASHBOARD_MAX_CODES} - 1 (room for a new one):
   * requests without a key cannot grow the server. Codes are kept in the order they were made, which is also the
   * order they expire in (the server clock never goes back).
   */
  #forgetOldCodes(): void {
    const now = this.#clock.now();
    for (const [code, record] of this.#codes) {
      if (record.expiresAt >= now && this.#codes.size < DASHBOARD_MAX_CODES) return;
      this.#codes.delete(code);
    }
  }

  #token(body: string): Response {
    let code: unknown;
    try {
      code = (JSON.parse(body) as { code?: unknown } | null)?.code;
    } catch {
      code = undefined;
    }
    if (typeof code !== 'string' || code === '') return failure(400, 'invalid_request', 'The body must be JSON {"code": "..."}.');
    const record = this.#codes.get(code);
    if (!record) return failure(400, 'invalid_code', 'This code was not made by this dashboard.');
    if (record.used) return failure(400, 'code_used', 'This code was exchanged already: a code works once.');
    if (this.#clock.now() > record.expiresAt) return failure(400, 'code_expired', 'This code is older than 120 seconds: sign in again.');
    record.used = true;
    const created = this.#store().addKey({ account: record.account, name: this.keyName, expiresInDays: this.keyExpiryDays });
    return json(200, { key: created.key, name: created.name, expires_at: created.expires_at, tier: created.tier });
  }
}

/**
 * Why a request comes from a web page on another origin and is refused, or `null`. The command line calls the
 * token route without an `Origin`, and the browser opens authorize as a top-level navigation (a GET without
 * `Origin`). A page's `fetch` in `cors` mode carries its `Origin`: it could read the code from the redirect's
 * end (the callback port may be any loopback service that answers CORS) or a new key from the token answer. A
 * `no-cors` fetch carries none, but its answer is opaque. With no CORS headers either, a page on another origin
 * can obtain neither a code nor a key.
 */
function pageRequest(conn: Connection): string | null {
  const origin = conn.reader.header('origin');
  return origin === null ? null : `The dashboard's command-line routes answer no web page (Origin ${origin}).`;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
