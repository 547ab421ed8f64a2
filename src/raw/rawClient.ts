import type { Middleware } from 'openapi-fetch';
import { OzUsageError } from '../core/errors.js';
import type { Transport } from '../core/transport.js';
import { OPERATIONS } from '../generated/operations.js';
import type { OzRawClient } from './rawClientType.js';

export type { OzRawClient };

/**
 * Builds the raw client of a transport whose base address is `baseURL`. openapi-fetch and the routing of a
 * request to its operation (rawCalls.ts) are imported on the first raw call, so a bundle of the client carries
 * them only in a lazy chunk.
 */
export function createRawClient(transport: Transport, baseURL: string): OzRawClient {
  const middlewares: Middleware[] = [];
  let instance: OzRawClient | undefined;
  let client: Promise<OzRawClient> | undefined;
  const loaded = () =>
    (client ??= import('./rawCalls.js').then(async ({ createRawCalls }) => {
      // Handed in rather than imported: a lazy module that shares no module with the client stays one lazy chunk
      // in a bundle (esbuild splits shared modules into chunks of their own).
      instance = await createRawCalls(transport, baseURL, { operations: OPERATIONS, OzUsageError });
      // The middlewares added before it was loaded, in their order.
      if (middlewares.length > 0) instance.use(...middlewares);
      return instance;
    }));
  const method =
    (name: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE' | 'request') =>
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
    request: method('request'),
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
