/**
 * The headers of a web page the server serves (the console, the dashboard's keys tab): its Content-Security-Policy,
 * no type sniffing, no framing, no referrer to other sites, no caching.
 */
export function pageHeaders(contentType: string, csp: string): Record<string, string> {
  return {
    'content-type': `${contentType}; charset=utf-8`,
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Not no-referrer: under it a browser sends `Origin: null` on a form post, and the keys tab checks Origin.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}
