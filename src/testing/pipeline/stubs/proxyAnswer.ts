import { invalidParams, OzMockError } from '../../contract/errors.js';
import { redactAdminTokenHeader } from '../../support/adminTokenText.js';
import { isPlainObject } from '../../support/plainObject.js';
import { responseReply, type Reply } from '../../wire/requestOutcome.js';
import type { RequestContext } from '../requestContext.js';

/** A stub answer that sends the request on to another service: see {@link StubAnswer.proxy}. */
export interface ProxyAnswer {
  /** The service's base URL (`http:` or `https:`): the request's path and query are appended to it. */
  readonly proxy: string;
  /** The key sent to the service (`Authorization: Bearer ...`); without it the request's own `Authorization` goes on. */
  readonly proxyApiKey?: string;
}

const PROXY_FIELDS = ['proxy', 'proxyApiKey'];

/** Connection-level headers (RFC 9110, 7.6.1) and those the proxy sets itself: never sent on in either direction. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Answer headers fetch has already acted on (the body comes decoded): sent on, they would lie about the bytes. */
const DECODED: ReadonlySet<string> = new Set(['content-encoding', 'content-length']);

/** The default bound of a proxied answer when the server names none (the default `maxBodyBytes`). */
const DEFAULT_PROXY_BOUND = 10 * 1024 * 1024;

/**
 * Checks a proxy answer's fields: `proxy` an absolute `http:`/`https:` URL without credentials, `proxyApiKey` a
 * string. A problem throws 422 `invalid_params` naming the field under `at` (`answer.proxy`).
 */
export function checkProxyAnswer(answer: Readonly<Record<string, unknown>>, at: string): void {
  for (const k of Object.keys(answer))
    if (!PROXY_FIELDS.includes(k))
      throw invalidParams(`${at}.${k}: a proxy answer takes only ${PROXY_FIELDS.join(' and ')} (the service answers the rest).`, [`${at}.${k}`]);
  let url: URL | null = null;
  try {
    url = typeof answer.proxy === 'string' ? new URL(answer.proxy) : null;
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw invalidParams(`${at}.proxy must be an absolute http: or https: URL (got ${JSON.stringify(answer.proxy)}).`, [`${at}.proxy`]);
  if (url.username || url.password) throw invalidParams(`${at}.proxy must not hold credentials: give the key as ${at}.proxyApiKey.`, [`${at}.proxy`]);
  if (url.search || url.hash) throw invalidParams(`${at}.proxy is a base URL: no query or fragment (the request's own are appended).`, [`${at}.proxy`]);
  if (answer.proxyApiKey !== undefined && (typeof answer.proxyApiKey !== 'string' || answer.proxyApiKey === ''))
    throw invalidParams(`${at}.proxyApiKey must be a non-empty string.`, [`${at}.proxyApiKey`]);
}

/** A proxy answer as stub listings show it: its key cut to its last four characters (`…WxYz`). */
export function listedProxyAnswer(answer: ProxyAnswer): ProxyAnswer {
  return answer.proxyApiKey === undefined ? answer : { ...answer, proxyApiKey: `…${answer.proxyApiKey.length > 8 ? answer.proxyApiKey.slice(-4) : ''}` };
}

/** Whether an answer is a proxy answer (it has `proxy`). */
export function isProxyAnswer(answer: unknown): answer is ProxyAnswer {
  return isPlainObject(answer) && answer.proxy !== undefined;
}

/** The target's URL: the stub's base URL, then the request's path and query. */
export function proxyTarget(base: string, requestUrl: string): URL {
  const from = new URL(requestUrl);
  const target = new URL(base);
  target.pathname = `${target.pathname.replace(/\/$/, '')}${from.pathname}`;
  target.search = from.search;
  return target;
}

function forwardedHeaders(ctx: RequestContext, answer: ProxyAnswer): Headers {
  const out = new Headers();
  ctx.request.headers.forEach((value, name) => {
    // A header holding the admin token (the journal's redaction finds it) never leaves for another service.
    if (!HOP_BY_HOP.has(name) && redactAdminTokenHeader(value) === value) out.set(name, value);
  });
  if (answer.proxyApiKey !== undefined) out.set('authorization', `Bearer ${answer.proxyApiKey}`);
  return out;
}

/** The answer's body, erroring (the connection is cut) once more than `bound` bytes came. */
function bounded(body: ReadableStream<Uint8Array>, bound: number, target: string): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > bound) controller.error(new Error(`The answer of ${target} passed ${bound} bytes.`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Sends the request on to the stub's service and answers what it answered: status, headers (hop-by-hop ones
 * left out) and body, streamed through as it comes. Redirects are not followed (a 3xx comes back as it came). The
 * caller's abort aborts it. The target unreachable, or an answer over the server's `maxBodyBytes`, answers 502
 * `upstream_error`. The journal marks the request `proxied` with the target's URL.
 */
export async function proxyReply(ctx: RequestContext, answer: ProxyAnswer): Promise<Reply> {
  const target = proxyTarget(answer.proxy, ctx.request.url);
  const shown = `${target.origin}${target.pathname}`;
  ctx.proxied = shown;
  const bound = ctx.parts.options.maxBodyBytes ?? DEFAULT_PROXY_BOUND;
  const method = ctx.request.method;
  let response: Response;
  try {
    response = await fetch(target, {
      method,
      headers: forwardedHeaders(ctx, answer),
      body: method === 'GET' || method === 'HEAD' || ctx.rawBody === null ? undefined : ctx.rawBody,
      redirect: 'manual',
      signal: ctx.request.signal,
    });
  } catch (err) {
    if (ctx.request.signal.aborted) throw err;
    throw new OzMockError(502, 'upstream_error', `The stub's proxy target ${shown} did not answer: ${(err as Error).message}.`);
  }
  const length = Number(response.headers.get('content-length') ?? NaN);
  if (length > bound) {
    void response.body?.cancel().catch(() => undefined);
    throw new OzMockError(502, 'upstream_error', `The stub's proxy target ${shown} answered ${length} bytes, more than the server's maxBodyBytes (${bound}).`);
  }
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !DECODED.has(name)) headers.set(name, value);
  });
  const body = response.body === null ? null : bounded(response.body, bound, shown);
  return responseReply(new Response(body, { status: response.status, statusText: response.statusText, headers }));
}
