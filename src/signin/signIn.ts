import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FetchLike } from '../core/requestOptions.js';
import { SignInError } from './signInError.js';

/** Options of {@link signIn}. */
export interface SignInOptions {
  /** The dashboard's address. Defaults to `process.env.OZ_DASHBOARD_URL`. */
  dashboardURL?: string;
  /**
   * Called once with the authorize URL the user must open. Default: print it to stderr. Return a promise to
   * open a browser yourself; with `openBrowser: true` the SDK also tries the platform's opener.
   */
  onAuthorizeURL?: (url: string) => void | Promise<void>;
  /** Try to open the authorize URL in the default browser (`open`, `xdg-open` or `start`). Default false. */
  openBrowser?: boolean;
  /** Milliseconds to wait for the dashboard's callback. Default 5 minutes. */
  timeout?: number;
  /** Aborts the sign-in; the listener is closed at once. */
  signal?: AbortSignal;
  /** The Fetch-API function for the token exchange. Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** The local port to listen on. Default 0: a free port chosen by the system. */
  port?: number;
}

/** What the dashboard's token exchange gives: the new key (shown exactly once) and its facts. */
export interface SignInResult {
  /** The platform key (`ozk_...`). Store it safely: it cannot be shown again. */
  key: string;
  /** The key's name. */
  name: string;
  /** When the key expires (RFC 3339), or null for never. */
  expires_at: string | null;
  /** The account's tier, which the key takes. */
  tier: string;
}

/** How long a one-time sign-in code stays valid on the dashboard, in milliseconds. */
export const SIGN_IN_CODE_VALIDITY_MS = 120_000;

/**
 * Runs the command-line sign-in: listens on 127.0.0.1 on a free port, makes a random `state`, gives the
 * dashboard's authorize URL, accepts only a callback that carries the same `state`, exchanges the one-time code
 * at `POST {dashboard}/api/cli/token` and returns the key. The listener is closed on every path (success, error,
 * timeout, abort). The key is never logged. Node only.
 */
export async function signIn(options: SignInOptions = {}): Promise<SignInResult> {
  const dashboard = (options.dashboardURL ?? process.env.OZ_DASHBOARD_URL ?? '').replace(/\/+$/, '');
  if (!dashboard) throw new SignInError('invalid_answer', 'No dashboard URL: pass `dashboardURL` or set OZ_DASHBOARD_URL.');
  if (options.signal?.aborted) throw new SignInError('aborted', 'The sign-in was aborted before it started.');
  const state = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
  const { createServer } = await import('node:http');

  let server: Server | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const code = await new Promise<string>((resolve, reject) => {
      const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (req.method !== 'GET' || url.pathname !== '/callback') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
          return;
        }
        // A callback without our state is someone else's (or forged): refuse it and keep waiting for ours.
        if (url.searchParams.get('state') !== state) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('This sign-in link does not match; return to the terminal.\n');
          return;
        }
        // The dashboard's way (OAuth's) to say the user refused: with our state, so it is the answer we wait for.
        const refused = url.searchParams.get('error');
        if (refused !== null) {
          res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('Sign-in refused. You can close this window.\n');
          reject(new SignInError('denied', `The dashboard refused the sign-in (${refused.slice(0, 64)}).`));
          return;
        }
        const got = url.searchParams.get('code');
        if (!got) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('The callback carries no code.\n');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('Signed in. You can close this window and return to the terminal.\n');
        resolve(got);
      });
      server = srv;
      srv.on('error', (cause) => reject(new SignInError('invalid_answer', 'The local sign-in listener failed.', { cause })));
      timer = setTimeout(
        () => reject(new SignInError('timeout', `No sign-in callback within ${Math.round((options.timeout ?? 300_000) / 1000)} s.`)),
        options.timeout ?? 300_000,
      );
      onAbort = () => reject(new SignInError('aborted', 'The sign-in was aborted.'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      srv.listen(options.port ?? 0, '127.0.0.1', () => {
        const address = srv.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        const authorize = `${dashboard}/api/cli/authorize?port=${port}&state=${encodeURIComponent(state)}`;
        Promise.resolve()
          .then(() => (options.onAuthorizeURL ? options.onAuthorizeURL(authorize) : void process.stderr.write(`Open this URL to sign in:\n  ${authorize}\n`)))
          .then(() => (options.openBrowser ? openInBrowser(authorize) : undefined))
          .catch(reject);
      });
    });
    return await exchange(dashboard, code, options);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    await closeServer(server);
  }
}

async function exchange(dashboard: string, code: string, options: SignInOptions): Promise<SignInResult> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetchFn(`${dashboard}/api/cli/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code }),
      // The code is valid for 120 s: an exchange still hanging by then can only fail.
      signal: options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(SIGN_IN_CODE_VALIDITY_MS)])
        : AbortSignal.timeout(SIGN_IN_CODE_VALIDITY_MS),
    });
  } catch (cause) {
    if (options.signal?.aborted) throw new SignInError('aborted', 'The sign-in was aborted.', { cause });
    if (cause instanceof Error && cause.name === 'TimeoutError') {
      throw new SignInError('timeout', 'The token exchange did not answer within the code\'s 120 s validity.', { cause });
    }
    throw new SignInError('exchange_failed', 'The token exchange failed before an answer came.', { cause });
  }
  const text = await response.text();
  if (!response.ok) {
    // The message of the dashboard's error envelope, never the body as a whole (it is not ours to print).
    let message = response.statusText;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not JSON: keep the status text
    }
    throw new SignInError('exchange_failed', `The token exchange answered ${response.status}: ${message}`, { status: response.status });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new SignInError('invalid_answer', 'The token exchange answered something that is not JSON.', { cause });
  }
  const r = parsed as Partial<SignInResult>;
  if (typeof r.key !== 'string' || typeof r.name !== 'string' || typeof r.tier !== 'string') {
    throw new SignInError('invalid_answer', 'The token exchange answered without a key, name or tier.');
  }
  return { key: r.key, name: r.name, tier: r.tier, expires_at: r.expires_at ?? null };
}

async function openInBrowser(url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  // Best effort: the URL was already given to the user, so a missing opener is not an error.
  const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

function closeServer(server: Server | undefined): Promise<void> {
  if (!server || !server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
