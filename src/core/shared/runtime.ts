import { API_VERSION, SDK_VERSION } from './version.js';
import { IN_PROCESS_DOMAIN } from './inProcessAddress.js';

/** True in a web browser (a global `window` with a `document`), where an API key would be exposed. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown } };
  return typeof g.window === 'object' && g.window !== null && typeof g.window.document === 'object';
}

// The mark of the embedded server's `fetch` (`oz-sdk/testing` sets it on `server.fetch`): a registered symbol, so
// that the client and the server agree across copies of the package (its ESM and CJS builds, the sources).
const EMBEDDED_SERVER_FETCH = Symbol.for('oz-sdk.embeddedServerFetch');

/** Marks `fetch` as the embedded server's: a client over it sends nothing out of the process. */
export function markEmbeddedServerFetch<F extends object>(fetch: F): F {
  Object.defineProperty(fetch, EMBEDDED_SERVER_FETCH, { value: true });
  return fetch;
}

/**
 * Whether a client's calls stay inside this Node process, so that a DOM-like test environment (jsdom, happy-dom:
 * a `window` with a `document` in Node) is no browser exposing a key: they go to the embedded server, through its
 * marked `fetch`, or to its in-process address (`*.oz.test`, a reserved name no network answers: its msw mount, or
 * a test's own fetch over `server.fetch`). A real browser has no Node process: there the client still needs
 * `dangerouslyAllowBrowser`.
 */
export function callsStayInProcess(fetch: unknown, baseURL: string | undefined): boolean {
  const node = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
  if (!node) return false;
  if (typeof fetch === 'function' && (fetch as unknown as Record<symbol, unknown>)[EMBEDDED_SERVER_FETCH] === true) return true;
  if (baseURL === undefined) return false;
  try {
    const host = new URL(baseURL).hostname.toLowerCase();
    return host === IN_PROCESS_DOMAIN || host.endsWith(`.${IN_PROCESS_DOMAIN}`);
  } catch {
    return false;
  }
}

// The Node version cannot change while the process runs: the string is made on the first call, then kept
// (null outside Node).
let nodeAgent: string | null | undefined;

/** The `User-Agent` the SDK sends in Node (`oz-sdk/1.0.0 (API 2.4.0; node/20.20.0)`), undefined elsewhere. */
export function nodeUserAgent(): string | undefined {
  // Asked per call: a page's `window` may appear after the module loaded (a test's DOM, a bundled app).
  if (nodeAgent === undefined) {
    const node = typeof process === 'object' ? process.versions?.node : undefined;
    nodeAgent = node ? `oz-sdk/${SDK_VERSION} (API ${API_VERSION}; node/${node})` : null;
  }
  return nodeAgent === null || isBrowser() ? undefined : nodeAgent;
}
