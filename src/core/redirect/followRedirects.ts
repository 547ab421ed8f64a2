import { MAX_REDIRECTS, OzRedirectError } from '../errors/redirectError.js';
import type { FetchLike } from '../shared/requestOptions.js';


const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);


/**
 * `fetch` with redirects followed by the SDK itself (`redirect: 'manual'`): a redirect within the same origin is
 * followed as fetch follows it (301 and 302 turn a POST into a GET, 303 any method but HEAD; 307 and 308 keep the
 * method and body), with the call's headers; a redirect to another origin is an {@link OzRedirectError}, and
 * nothing is sent there. (fetch itself strips only `Authorization` on such a hop, so an `X-API-Key` would leak,
 * and a 307 or 308 would re-send the body.) A 3xx without a `Location` is an answer like any other.
 */
export async function fetchWithinOrigin(fetch: FetchLike, url: string, init: RequestInit): Promise<Response> {
  const request: RequestInit = init.redirect === 'manual' ? init : { ...init, redirect: 'manual' };
  return await followRedirects(fetch, url, request, await fetch(url, request));
}

/**
 * What {@link fetchWithinOrigin} does once the first answer (`response`, to `init` sent with `redirect: 'manual'`
 * to `url`) has come: the transport fetches a call's attempt itself and comes here only for a 3xx or an opaque
 * redirect.
 */
export async function followRedirects(fetch: FetchLike, url: string, init: RequestInit, response: Response): Promise<Response> {
  // Kept as a string: a URL is parsed only once a redirect comes (parsing is a visible part of a call's cost).
  let current = url;
  let request = init;
  for (let hops = 0; ; hops++) {
    if (hops > 0) response = await fetch(current, request);
    // Most answers: no redirect, nor an opaque one (whose status is 0), with one getter read.
    const status = response.status;
    if (status >= 200 && status < 300) return response;
    if (response.type === 'opaqueredirect') {
      const here = new URL(current);
      throw new OzRedirectError(
        `${request.method ?? 'GET'} ${here.origin}${here.pathname} was redirected, and this runtime hides where to; the SDK follows no redirect it cannot check stays on the same origin. Point baseURL at the address that answers.`,
        0,
        undefined,
      );
    }
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const here = new URL(current);
    const from = `${request.method ?? 'GET'} ${here.origin}${here.pathname}`;
    const next = parsedURL(location, here);
    if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
      // Never a connection failure (which would be retried, a write sent again): the service's answer is wrong.
      throw new OzRedirectError(
        `${from} was redirected (${response.status}) to ${JSON.stringify(location)}, which is not a valid http(s) URL; nothing was sent there, and the request is not sent again.`,
        response.status,
        undefined,
      );
    }
    if (next.origin !== here.origin) {
      throw new OzRedirectError(
        `${from} was redirected (${response.status}) to another origin, ${next.origin}. The SDK does not follow it, so that neither the key nor the body reach an address the client was not given; if ${next.origin} is the service's address, pass it as baseURL.`,
        response.status,
        next.href,
      );
    }
    if (hops >= MAX_REDIRECTS) throw new OzRedirectError(`${from} was redirected more than ${MAX_REDIRECTS} times.`, response.status, next.href);
    const method = (request.method ?? 'GET').toUpperCase();
    if ((response.status === 303 && method !== 'GET' && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      const headers = new Headers(request.headers);
      headers.delete('content-type');
      request = { ...request, method: 'GET', body: undefined, headers };
    }
    current = next.href;
  }
}

/** `location` resolved against `base`, or null when it is no URL (`http://[::1`, a port past 65535). */
function parsedURL(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}
