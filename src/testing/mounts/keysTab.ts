import { readBodyText } from '../wire/bodyText.js';
import type { Connection } from '../wire/connection.js';
import type { ServerClock } from '../time/clock.js';
import { OzMockError } from '../contract/errors.js';
import { randomAlnum } from '../support/ids.js';
import { isoTime } from '../support/isoTime.js';
import { pageHeaders } from '../support/pageHeaders.js';
import { secretsMatch } from '../support/secretMatch.js';
import { KEY_EXPIRY_DAYS, type KeyExpiryDays, type Store } from '../state/store.js';
import type { KeyRecord } from '../state/state.js';

/** The keys tab's path under the dashboard. */
export const KEYS_TAB_ROUTE = '/keys';

/** The longest name a key made in the tab may have. */
export const KEY_NAME_MAX = 100;

/** The expiry the create form offers first. */
const DEFAULT_EXPIRY: KeyExpiryDays = 90;

/**
 * No script, no style, no frames; forms post to this dashboard only. The page is plain HTML: it works with the
 * keyboard and a screen reader as the browser's own controls do.
 */
const KEYS_TAB_CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** What the keys tab reads and changes: the same store (and so the same keys) the API checks. */
export interface KeysTabNeeds {
  store(): Store;
  readonly clock: ServerClock;
  /** How long a revoked key keeps working (the key cache's time, `keyCacheMs` of the server's settings). */
  keyCacheMs(): number;
  /** The account signed in with `signInAs`, or `null` when the user refused. */
  account(): string | null;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function expiryLabel(days: KeyExpiryDays): string {
  return days === null ? 'Never' : `${days} days`;
}

/** The error envelope the dashboard answers with (`{"error": {code, message}}`). */
export function dashboardFailure(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/**
 * The dashboard's keys tab (`{dashboard}/keys`, the service's specification, Authentication, point 7) for the account signed
 * in with `signInAs`: `GET` lists its keys (name, created, expiry, last characters; legacy keys read-only with
 * revoke), `POST {dashboard}/keys` creates a platform key (`name`, `expires_in_days`: `never`, 7, 30, 90, 180 or
 * 365) and answers the page with its value, shown this once; `POST {dashboard}/keys/{id}/revoke` revokes one (it
 * answers 401 once the key cache's time has passed). A write is taken only from the dashboard's own page: its
 * `Origin` must be the dashboard's and its form must carry the page's anti-forgery token; any other answers 403
 * `forbidden_origin`.
 */
export class KeysTab {
  /** The anti-forgery token every form of the page carries (one per dashboard, never sent by another site). */
  readonly #formToken = randomAlnum(32);
  readonly #needs: KeysTabNeeds;
  readonly #base: string;
  readonly #maxBodyBytes: number;

  /** `base`: the dashboard's path (`/dashboard`). */
  constructor(needs: KeysTabNeeds, base: string, maxBodyBytes: number) {
    this.#needs = needs;
    this.#base = base;
    this.#maxBodyBytes = maxBodyBytes;
  }

  /** Whether a route (the path under the dashboard) is the tab's. */
  owns(route: string): boolean {
    return route === KEYS_TAB_ROUTE || route.startsWith(`${KEYS_TAB_ROUTE}/`);
  }

  async handle(request: Request, conn: Connection, route: string): Promise<Response> {
    const revoke = /^\/keys\/([^/]+)\/revoke$/.exec(route);
    const isList = route === KEYS_TAB_ROUTE;
    if (request.method === 'GET' && isList) return this.#page(200, null);
    if (request.method !== 'POST' || (!isList && !revoke)) return dashboardFailure(404, 'not_found', `The dashboard has no ${request.method} ${route}.`);
    const refused = this.#foreignWrite(request, conn);
    if (refused) return dashboardFailure(403, 'forbidden_origin', refused);
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readBodyText(conn.reader, this.#maxBodyBytes));
    } catch (error) {
      if (error instanceof OzMockError) return dashboardFailure(error.status, error.code, error.message);
      throw error;
    }
    const token = form.get('csrf_token');
    if (token === null || !secretsMatch(this.#formToken, token))
      return dashboardFailure(403, 'forbidden_origin', "The form lacks the keys tab's anti-forgery token: write from the dashboard's own page.");
    const account = this.#needs.account();
    if (account === null) return dashboardFailure(401, 'unauthorized', 'No one is signed in to the dashboard (signInAs chose no account).');
    return revoke ? this.#revoke(account, decodeURIComponent(revoke[1]!)) : this.#create(account, form);
  }

  /**
   * Why a write does not come from the dashboard's own page, or `null`. A browser sends `Origin` on every form
   * post; a page on another site (or a request with no `Origin`) is refused before the body is read.
   */
  #foreignWrite(request: Request, conn: Connection): string | null {
    const origin = conn.reader.header('origin');
    const own = new URL(request.url).origin;
    if (origin === null) return "A write to the keys tab needs the Origin header of the dashboard's own page.";
    if (origin !== own) return `The keys tab takes writes from its own page only (${own}), not from ${origin}.`;
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(conn.reader.header('content-type') ?? ''))
      return "A write to the keys tab is its page's form (application/x-www-form-urlencoded).";
    return null;
  }

  #create(account: string, form: URLSearchParams): Response {
    const name = (form.get('name') ?? '').trim();
    if (name === '' || name.length > KEY_NAME_MAX) return dashboardFailure(400, 'invalid_request', `name is required: 1 to ${KEY_NAME_MAX} characters.`);
    const expiryText = form.get('expires_in_days') ?? '';
    const expiry = expiryText === 'never' ? null : KEY_EXPIRY_DAYS.find((d) => String(d) === expiryText);
    if (expiry === undefined) return dashboardFailure(400, 'invalid_request', `expires_in_days must be one of: never, ${KEY_EXPIRY_DAYS.join(', ')}.`);
    const created = this.#needs.store().addKey({ account, name, expiresInDays: expiry });
    const notice = `<section aria-labelledby="new-key-heading">
<h2 id="new-key-heading">Your new key</h2>
<p>Copy it now: it is shown only this once, and only its hash is kept. A lost key cannot be recovered (create a new one and revoke the old).</p>
<p><label for="new-key-value">Key ${escapeHtml(created.name)}</label> <input id="new-key-value" readonly size="48" value="${escapeHtml(created.key)}"></p>
</section>`;
    return this.#page(201, notice);
  }

  #revoke(account: string, id: string): Response {
    const key = this.#needs.store().data.keys.get(id);
    if (!key || key.account !== account) return dashboardFailure(404, 'key_not_found', `The signed-in account has no key ${id}.`);
    this.#needs.store().revokeKey(id);
    const until = isoTime(key.revoked_at! + this.#needs.keyCacheMs());
    return this.#page(200, `<p role="status">Key ${escapeHtml(key.name)} is revoked: it stops working at ${until}, once the key cache's time has passed.</p>`);
  }

  #status(key: KeyRecord, now: number): string {
    if (key.revoked_at !== null) {
      const until = key.revoked_at + this.#needs.keyCacheMs();
      return now >= until ? 'Revoked' : `Revoked (works until ${isoTime(until)})`;
    }
    if (key.expires_at !== null && now >= key.expires_at) return 'Expired';
    return 'Active';
  }

  #rows(keys: readonly KeyRecord[], now: number): string {
    if (keys.length === 0) return '<tr><td colspan="6">None.</td></tr>';
    return keys
      .map((key) => {
        const action =
          key.revoked_at === null
            ? `<form method="post" action="${this.#base}${KEYS_TAB_ROUTE}/${encodeURIComponent(key.id)}/revoke"><input type="hidden" name="csrf_token" value="${this.#formToken}"><button type="submit" aria-label="Revoke ${escapeHtml(key.name)} (${escapeHtml(key.preview)})">Revoke</button></form>`
            : '–';
        const cells = [key.name, isoTime(key.created_at), key.expires_at === null ? 'Never' : isoTime(key.expires_at), key.preview, this.#status(key, now)];
        return `<tr data-key-id="${escapeHtml(key.id)}">${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}<td>${action}</td></tr>`;
      })
      .join('\n');
  }

  #table(caption: string, rows: string): string {
    return `<table>
<caption>${caption}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  }

  #page(status: number, notice: string | null): Response {
    const account = this.#needs.account();
    let main: string;
    if (account === null) {
      main = '<h1>API keys</h1>\n<p>No one is signed in to the dashboard.</p>';
    } else {
      const now = this.#needs.clock.now();
      const keys = [...this.#needs.store().data.keys.values()].filter((k) => k.account === account);
      const options = [null, ...KEY_EXPIRY_DAYS]
        .map((d) => `<option value="${d ?? 'never'}"${d === DEFAULT_EXPIRY ? ' selected' : ''}>${expiryLabel(d)}</option>`)
        .join('');
      main = `<h1>API keys</h1>
${notice ?? ''}
<h2>Platform keys</h2>
${this.#table(
  'Platform keys of this account',
  this.#rows(
    keys.filter((k) => k.kind === 'platform'),
    now,
  ),
)}
<h2>Create a key</h2>
<form method="post" action="${this.#base}${KEYS_TAB_ROUTE}">
<input type="hidden" name="csrf_token" value="${this.#formToken}">
<p><label for="key-name">Name</label> <input id="key-name" name="name" required maxlength="${KEY_NAME_MAX}" autocomplete="off"></p>
<p><label for="key-expiry">Expiry</label> <select id="key-expiry" name="expires_in_days">${options}</select></p>
<p><button type="submit">Create key</button></p>
</form>
<h2>Legacy keys</h2>
<p>Legacy keys (models plane and connector proxy) are read-only: they are no longer created, and can be revoked.</p>
${this.#table(
  'Legacy keys of this account (read-only)',
  this.#rows(
    keys.filter((k) => k.kind !== 'platform'),
    now,
  ),
)}`;
    }
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API keys · Oz dashboard</title>
</head>
<body>
<header><p>Oz dashboard${account === null ? '' : ` · signed in as <strong>${escapeHtml(account)}</strong>`}</p></header>
<main>
${main}
</main>
</body>
</html>
`;
    return new Response(html, { status, headers: pageHeaders('text/html', KEYS_TAB_CSP) });
  }
}
