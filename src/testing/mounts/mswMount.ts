import { createRequire } from 'node:module';
import type { HttpHandler, http as MswHttp } from 'msw';
import type { RequestHandler } from '../pipeline/serverStep.js';
import { serveInProcess, type MountOptions } from './fetchMount.js';

/** The part of the msw module the mount uses: `import * as msw from 'msw'` (or `require('msw')`) fits. */
export interface MswModule {
  readonly http: Pick<typeof MswHttp, 'all'>;
}

/** Options of {@link OzServer.handlers}. */
export interface MswHandlerOptions {
  /**
   * Your test's own msw module (`import * as msw from 'msw'`). Give it under jest: jest loads modules in a
   * registry of its own, so the msw this package would load itself is another instance than the one your
   * `setupServer` comes from (under jest ESM it cannot be loaded at all). Default: msw loaded from here.
   */
  readonly msw?: MswModule;
  /** The API's base URL (an origin) to intercept. Default: the server's `url`. */
  readonly url?: string;
  /** The MCP server's own URL to intercept (on another origin). Default: the server's `mcpUrl`. */
  readonly mcpUrl?: string;
}

/** msw is an optional peer: it is loaded only when `handlers()` is called, so importing the server never needs it. */
function loadMsw(): MswModule {
  // A require() from this module's place, in the CJS build (__filename) and the ESM one (import.meta.url);
  // Node >= 20.19 resolves msw's ESM build through it, the same instance as the user's `import 'msw'`.
  const load = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
  try {
    return load('msw') as MswModule;
  } catch (err) {
    throw new Error(
      "server.handlers() could not load msw: install msw 2 (npm install --save-dev msw), or pass your own module: server.handlers({ msw }) after import * as msw from 'msw' (needed under jest, whose module registry this package's require cannot reach).",
      { cause: err },
    );
  }
}

/**
 * msw request handlers serving the API at `url` and the MCP server at `mcpUrl`: plain handlers that answer
 * `Response`s (event streams as `ReadableStream` bodies, not msw's `sse()`). An abort errors a streamed body
 * itself (msw's interceptors do not); a dropped connection is `Response.error()`, a network error to fetch.
 */
export function mswHandlers(handler: RequestHandler, options: MountOptions, overrides: MswHandlerOptions = {}): HttpHandler[] {
  if (overrides.msw !== undefined && typeof overrides.msw?.http?.all !== 'function')
    throw new TypeError("msw must be the msw module (import * as msw from 'msw'): its http.all is missing");
  const { http } = overrides.msw ?? loadMsw();
  const url = (overrides.url ?? options.url).replace(/\/+$/, '');
  const mcpUrl = (overrides.mcpUrl ?? options.mcpUrl).replace(/\/+$/, '');
  const resolved: MountOptions = { ...options, url, mcpUrl, mcpOrigin: `${new URL(mcpUrl).origin}/` };
  const serve = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await serveInProcess(handler, resolved, request, 'msw');
    } catch {
      // A dropped connection, or an abort the client already saw.
      return Response.error();
    }
  };
  // msw parses a request once per handler it tries (its cookies, its URL against a pattern compiled again): the
  // API's handler first, since nearly every request is for it, and the MCP server's only when on another origin.
  const mcpOrigin = new URL(mcpUrl).origin;
  // On one origin, the MCP server's handler serves the API's paths too (as it did when it came first).
  if (mcpOrigin === new URL(url).origin) return [http.all(`${mcpOrigin}/*`, serve)];
  return [http.all(`${url}/*`, serve), http.all(`${mcpOrigin}/*`, serve)];
}
