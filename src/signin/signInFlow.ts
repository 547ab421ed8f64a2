import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SignInOptions, SignInResult } from './signInOptions.js';
import type { inProcessAddressMiss } from '../core/shared/inProcessAddress.js';
import type { SignInError } from './signInError.js';
import type { escapedControls } from '../core/shared/printable.js';
import type { OzUsageError } from '../core/errors/errors.js';
import type { boundedText } from '../core/shared/boundedText.js';

// The command-line sign-in itself, an optional part loaded by `signIn()` (signIn.ts) on its first call. Node only: the
// built package reaches it as `#sign-in` (package.json "imports"), which is signInFlowOffNode.ts off Node.

/** What the flow takes from the client's modules (handed in by `signIn()`, see there why). */
export interface SignInParts {
  readonly SignInError: typeof SignInError;
  /** The caller's mistake (`OzUsageError`): off Node, `signIn()` itself (signInFlowOffNode.ts). */
  readonly UsageError: typeof OzUsageError;
  /** How long a one-time code stays valid (`SIGN_IN_CODE_VALIDITY_MS`). */
  readonly codeValidityMs: number;
  /** What to say of an exchange that reached no host at the embedded server's in-process address. */
  readonly inProcessAddressMiss: typeof inProcessAddressMiss;
  /** Text from the dashboard made printable (its control characters escaped). */
  readonly escapedControls: typeof escapedControls;
  /** A body read up to a bound (the client's reader of every answer). */
  readonly boundedText: typeof boundedText;
}

/** The most of the token exchange's answer read: a key and three short fields fit many times over. */
export const SIGN_IN_ANSWER_MAX_BYTES = 64 * 1024;

/** The flow of `signIn()`: the local listener, the dashboard's callback, the token exchange. */
export async function runSignIn(options: SignInOptions, parts: SignInParts): Promise<SignInResult> {
  const { SignInError } = parts;
  const dashboard = (options.dashboardURL ?? process.env.OZ_DASHBOARD_URL ?? '').replace(/\/+$/, '');
  if (!dashboard) throw new SignInError('invalid_answer', 'No dashboard URL: pass `dashboardURL` or set OZ_DASHBOARD_URL.');
  if (options.signal?.aborted) throw new SignInError('aborted', 'The sign-in was aborted before it started.');
  const state = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
  // Node's own modules load when the part runs: a static import would sit at the top of a Worker's bundle (profileStore.ts says why).
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
    return await exchange(dashboard, code, options, parts);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    await closeServer(server);
  }
}

/** Sends the one-time code to the dashboard: its answer, or the sign-in's error for a request that got none. */
async function postCode(
  dashboard: string,
  code: string,
  options: SignInOptions,
  { SignInError, codeValidityMs, inProcessAddressMiss }: SignInParts,
): Promise<Response> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  try {
    return await fetchFn(`${dashboard}/api/cli/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code }),
      // The code is valid for 120 s: an exchange still hanging by then can only fail.
      signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(codeValidityMs)]) : AbortSignal.timeout(codeValidityMs),
    });
  } catch (cause) {
    if (options.signal?.aborted) throw new SignInError('aborted', 'The sign-in was aborted.', { cause });
    if (cause instanceof Error && cause.name === 'TimeoutError') {
      throw new SignInError('timeout', "The token exchange did not answer within the code's 120 s validity.", { cause });
    }
    const hint = inProcessAddressMiss(dashboard, cause);
    throw new SignInError('exchange_failed', `The token exchange failed before an answer came.${hint === null ? '' : ` ${hint}`}`, { cause });
  }
}

/** The exchange's answer as text, read up to {@link SIGN_IN_ANSWER_MAX_BYTES}: a dashboard cannot make the process hold more. */
async function answerText(response: Response, { SignInError, boundedText }: SignInParts): Promise<string> {
  if (response.body === null) return '';
  try {
    return await boundedText(response.body.getReader(), SIGN_IN_ANSWER_MAX_BYTES);
  } catch (cause) {
    const tooLarge = cause instanceof Error && cause.name === 'OzResponseTooLargeError';
    const what = tooLarge ? `more than ${SIGN_IN_ANSWER_MAX_BYTES / 1024} KiB` : 'a body that broke off';
    throw new SignInError('invalid_answer', `The token exchange answered ${what}; nothing was stored.`, { status: response.status, cause });
  }
}

async function exchange(dashboard: string, code: string, options: SignInOptions, parts: SignInParts): Promise<SignInResult> {
  const { SignInError, escapedControls } = parts;
  const response = await postCode(dashboard, code, options, parts);
  const text = await answerText(response, parts);
  if (!response.ok) {
    // The message of the dashboard's error envelope, never the body as a whole (it is not ours to print).
    let message = response.statusText;
    try {
      const given = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
      if (typeof given === 'string') message = given;
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
  // `null`, an array or a string hold no field: the same answer without a key, name or tier.
  const r = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Partial<Record<keyof SignInResult, unknown>>;
  if (typeof r.key !== 'string' || r.key === '' || typeof r.name !== 'string' || typeof r.tier !== 'string') {
    throw new SignInError('invalid_answer', 'The token exchange answered without a key, name or tier.');
  }
  if (r.expires_at !== undefined && r.expires_at !== null && typeof r.expires_at !== 'string') {
    throw new SignInError('invalid_answer', 'The token exchange answered an expires_at that is neither a time nor null.');
  }
  // Text a dashboard gave, shown on terminals and kept in profiles: no control character of its goes on.
  return { key: r.key, name: escapedControls(r.name), tier: escapedControls(r.tier), expires_at: r.expires_at == null ? null : escapedControls(r.expires_at) };
}

async function openInBrowser(url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
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
