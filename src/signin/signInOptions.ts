import type { FetchLike } from '../core/shared/requestOptions.js';

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
  /** The key's name (its control characters, if the dashboard sent any, written as `\uXXXX` escapes). */
  name: string;
  /** When the key expires (RFC 3339), or null for never (control characters escaped, as in `name`). */
  expires_at: string | null;
  /** The account's tier, which the key takes (control characters escaped, as in `name`). */
  tier: string;
}
