import { API_VERSION, SDK_VERSION } from './version.js';

/** True in a web browser (a global `window` with a `document`), where an API key would be exposed. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown } };
  return typeof g.window === 'object' && g.window !== null && typeof g.window.document === 'object';
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
