import type { Client, Middleware } from 'openapi-fetch';
import type { Operation } from '../core/operation.js';
import { OzUsageError } from '../core/errors.js';
import type { FetchLike } from '../core/requestOptions.js';
import type { Transport } from '../core/transport.js';
import { OPERATIONS } from '../generated/operations.js';
import type { paths } from '../generated/openapi.js';

/**
 * Typed calls to any path of openapi.json, for routes the resource classes do not wrap: openapi-fetch's client
 * (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`, typed by the generated `paths`) with the SDK's own transport under it:
 * the key on the header its plane takes, the client's headers and options, retries (`Retry-After`), trace ids on
 * execute calls, an OpenTelemetry span, and typed errors.
 *
 * A non-2xx answer throws its typed `OzAPIError` (as every call of the SDK does), so `error` of an answer is always
 * undefined and `data` is the 2xx body, typed as its JSON answer. openapi-fetch parses it as JSON; pass `parseAs: 'text'` for the markdown,
 * text and YAML wires and `parseAs: 'stream'` (with `stream: true` or an `execute-stream` route) for events.
 */
export type OzRawClient = Client<paths, 'application/json'>;

/** Builds the raw client of a transport whose base address is `baseURL`. */
export function createRawClient(transport: Transport, baseURL: string): OzRawClient {
  const base = new URL(baseURL.replace(/\/+$/, '') + '/');
  const send: FetchLike = async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return await transport.sendRaw(operationOf(request, base), request);
  };
  // openapi-fetch is imported on the first raw call, so a bundle of the client carries it only in a lazy chunk.
  const middlewares: Middleware[] = [];
  let instance: OzRawClient | undefined;
  let client: Promise<OzRawClient> | undefined;
  const loaded = () =>
    (client ??= import('openapi-fetch').then(({ default: createClient }) => {
      instance = createClient<paths, 'application/json'>({ baseUrl: base.href.replace(/\/$/, ''), fetch: send as (request: Request) => Promise<Response> });
      // The middlewares added before it was loaded, in their order.
      if (middlewares.length > 0) instance.use(...middlewares);
      return instance;
    }));
  const method =
    (name: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE') =>
    (...args: unknown[]) =>
      loaded().then((c) => (c[name] as (...a: unknown[]) => Promise<unknown>)(...args));
  const raw = {
    GET: method('GET'),
    PUT: method('PUT'),
    POST: method('POST'),
    DELETE: method('DELETE'),
    OPTIONS: method('OPTIONS'),
    HEAD: method('HEAD'),
    PATCH: method('PATCH'),
    TRACE: method('TRACE'),
    request: (...args: unknown[]) => loaded().then((c) => (c.request as (...a: unknown[]) => Promise<unknown>)(...args)),
    use(...added: Middleware[]) {
      middlewares.push(...added);
      instance?.use(...added);
    },
    eject(...removed: Middleware[]) {
      for (const m of removed) if (middlewares.includes(m)) middlewares.splice(middlewares.indexOf(m), 1);
      instance?.eject(...removed);
    },
  };
  return raw as unknown as OzRawClient;
}

interface Route {
  readonly op: Operation;
  readonly pattern: RegExp;
}

let routes: readonly Route[] | undefined;

/** Every operation as a pattern of its path, literal paths first (`/v1/workflows/execute` before `{name}`). */
function allRoutes(): readonly Route[] {
  routes ??= Object.values(OPERATIONS as Record<string, Operation>)
    .map((op) => {
      const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => (op.slashParams?.includes(name) ? '.+' : '[^/]+'));
      return { op, pattern: new RegExp(`^${source}$`), params: (op.path.match(/\{/g) ?? []).length };
    })
    .sort((a, b) => a.params - b.params)
    .map(({ op, pattern }) => ({ op, pattern }));
  return routes;
}

/** The operation of openapi.json a request is for, by its method and its path under the base address. */
function operationOf(request: Request, base: URL): Operation {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(base.pathname) ? `/${url.pathname.slice(base.pathname.length)}` : url.pathname;
  const route = allRoutes().find((r) => r.op.method === request.method && r.pattern.test(path));
  if (route === undefined) {
    throw new OzUsageError(`No operation of openapi.json is ${request.method} ${path}; the raw client calls the API's own paths only.`);
  }
  return route.op;
}
