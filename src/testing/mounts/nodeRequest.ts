import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * The request target of a plain origin-form request whose href is the origin followed by the target as sent:
 * characters the URL parser keeps as they are, and no dot segment (`/.`, `%2e`) for it to resolve. Anything
 * else goes through `new URL()` (see `listenHttp`).
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/** Hosts seen, and the origin of each (`null`: a host `@hono/node-server` refuses). Bounded: it starts over when full. */
const origins = new Map<string, string | null>();
const ORIGINS_LIMIT = 256;

/** The origin of a `Host` header as `new URL()` normalizes it, or `null` for one that does not parse as only a host. */
function originOf(host: string): string | null {
  let origin = origins.get(host);
  if (origin !== undefined) return origin;
  try {
    const url = new URL(`http://${host}/`);
    // `@hono/node-server`'s check: a host with anything beyond the name and the port is refused.
    origin = url.hostname.length !== host.length && url.hostname !== host.replace(/:\d+$/, '') ? null : url.origin;
  } catch {
    origin = null;
  }
  if (origins.size >= ORIGINS_LIMIT) origins.clear();
  origins.set(host, origin);
  return origin;
}

/**
 * The href `@hono/node-server` would give a request over plain HTTP (`new URL(http://<host><target>)`), worked out
 * without a `URL` for the usual request; `undefined` for any other (no host, an absolute-form or unusual target):
 * the listener then hands the request to `@hono/node-server` itself.
 */
export function plainHref(incoming: IncomingMessage): string | undefined {
  const target = incoming.url;
  const host = incoming.headers.host;
  if (!target || !host || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return undefined;
  const origin = originOf(host);
  return origin === null ? undefined : origin + target;
}

const INCOMING = Symbol('incoming');
const NATIVE = Symbol('native');

/**
 * A Fetch-API `Request` over Node's request, as `@hono/node-server` makes one: method, URL and headers are read
 * from Node's request (the headers when first asked for); the signal aborts when the connection closes before
 * the answer was sent; anything else (the body as a stream, `clone()`, `text()`) comes from a real `Request`
 * built the first time it is asked for. No `Request`, `AbortController` or web stream is made for a request
 * that never needs one (most of them: the server reads the body through its `RequestReader`).
 */
class NodeRequest {
  readonly [INCOMING]: IncomingMessage;
  readonly #outgoing: ServerResponse;
  readonly #url: string;
  #headers: Headers | null = null;
  #abort: AbortController | null = null;
  [NATIVE]: Request | null = null;

  constructor(incoming: IncomingMessage, outgoing: ServerResponse, url: string) {
    this[INCOMING] = incoming;
    this.#outgoing = outgoing;
    this.#url = url;
  }

  get method(): string {
    return this[INCOMING].method || 'GET';
  }

  get url(): string {
    return this.#url;
  }

  get headers(): Headers {
    if (this.#headers) return this.#headers;
    const headers = new Headers();
    const raw = this[INCOMING].rawHeaders;
    // HTTP/2 pseudo-headers (`:path`) left out, as `@hono/node-server` does.
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58) headers.append(raw[i]!, raw[i + 1]!);
    return (this.#headers = headers);
  }

  get signal(): AbortSignal {
    return this.#abortController().signal;
  }

  #abortController(): AbortController {
    if (this.#abort) return this.#abort;
    const abort = (this.#abort = new AbortController());
    const incoming = this[INCOMING];
    const outgoing = this.#outgoing;
    // As `@hono/node-server`: aborted when the connection closes before the whole answer was written (also when
    // that happened before anyone asked for the signal).
    const onClose = (): void => {
      if (incoming.errored) abort.abort(incoming.errored.toString());
      else if (!outgoing.writableFinished) abort.abort('Client connection prematurely closed.');
    };
    if (outgoing.closed) onClose();
    else outgoing.once('close', onClose);
    return abort;
  }

  /** The real `Request`, made once. */
  native(): Request {
    if (this[NATIVE]) return this[NATIVE];
    const method = this.method;
    const init: RequestInit & { duplex?: 'half' } = { method, headers: this.headers, signal: this.signal };
    if (method !== 'GET' && method !== 'HEAD') {
      init.body = Readable.toWeb(this[INCOMING]) as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
    return (this[NATIVE] = new Request(this.#url, init));
  }
}

// Everything else a `Request` has, read from the real one.
for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Request.prototype))) {
  if (key === 'constructor' || key in NodeRequest.prototype) continue;
  if (descriptor.get) {
    Object.defineProperty(NodeRequest.prototype, key, {
      get(this: NodeRequest) {
        return (this.native() as unknown as Record<string, unknown>)[key];
      },
    });
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(NodeRequest.prototype, key, {
      value(this: NodeRequest, ...args: unknown[]) {
        const native = this.native() as unknown as Record<string, (...a: unknown[]) => unknown>;
        return native[key]!(...args);
      },
    });
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);

/** The `Request` of a plain request (its href from {@link plainHref}). */
export function nodeRequest(incoming: IncomingMessage, outgoing: ServerResponse, url: string): Request {
  return new NodeRequest(incoming, outgoing, url) as unknown as Request;
}
