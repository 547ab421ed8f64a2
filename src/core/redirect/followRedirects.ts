import { MAX_REDIRECTS, OzRedirectError } from '../errors/redirectError.js';
import type { Step } from '../shared/call.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Sends one hop of a redirect (`init` with `redirect: 'manual'`) and answers its `Response`. */
type Hop = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The step that follows redirects itself (the fetch is sent with `redirect: 'manual'`): a redirect within the same
 * origin is followed as fetch follows it (301 and 302 turn a POST into a GET, 303 any method but HEAD; 307 and 308
 * keep the method and body), with the call's headers, each hop through the steps after this one; a redirect to
 * another origin is an {@link OzRedirectError}, and nothing is sent there. (fetch itself strips only
 * `Authorization` on such a hop, so an `X-API-Key` would leak, and a 307 or 308 would re-send the body.) A 3xx
 * without a `Location` is an answer like any other. Most answers are handed back as they came.
 */
export const followRedirects: Step = async (call, next) => {
  const answer = await next(call);
  const { status, type } = answer.response;
  if ((status < 300 || status > 399) && type !== 'opaqueredirect') return answer;
  const sending = call.sending!;
  const hop: Hop = async (url, init) => (await next({ ...call, url, sending: { signal: sending.signal, init } })).response;
  return { response: await redirected(hop, call.url, sending.init, answer.response), text: '' };
};

/** Where a redirect (`response`, the answer to `init` sent to `url`) leads, followed hop by hop within the origin. */
async function redirected(hop: Hop, url: string, init: RequestInit, response: Response): Promise<Response> {
  // Kept as a string: a URL is parsed only once a redirect comes (parsing is a visible part of a call's cost).
  let current = url;
  let request = init;
  for (let hops = 0; ; hops++) {
    if (hops > 0) response = await hop(current, request);
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
