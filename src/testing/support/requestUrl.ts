/**
 * The path and query of a request's URL by string search: a `Request`'s `url` is already a parsed and normalized
 * href (the Fetch API and `@hono/node-server` both build it with `URL`), so parsing it again per request (a
 * `URL` object for one field) would only cost time.
 */
export function splitUrl(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const q = url.indexOf('?', start);
  const end = q < 0 ? url.length : q;
  const hash = url.indexOf('#', start);
  return {
    path: start < 0 ? '/' : url.slice(start, hash >= 0 && hash < end ? hash : end),
    query: q < 0 ? '' : url.slice(q + 1, hash > q ? hash : url.length),
  };
}

/** The path of a request's URL (what `new URL(url).pathname` answers for a normalized href). */
export function urlPath(url: string): string {
  return splitUrl(url).path;
}
