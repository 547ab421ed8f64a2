import { OzUsageError } from '../core/errors/errors.js';
import { checkedMiddleware, type Middleware } from '../core/shared/middleware.js';
import type { Transport } from '../core/transport.js';
import { OPERATIONS } from '../generated/operations.js';
import type { OzRawClient, RawFetchMiddleware } from './rawClientType.js';
import { rawPathProblem } from './rawPathParameters.js';
import { loadPart } from '../core/shared/optionalPart.js';
import { unwritableBody } from '../core/request/unwritableBody.js';
import type { RawCalls } from './rawCalls.js';

export type { OzRawClient };

/**
 * Builds the raw client of a transport whose base address is `baseURL`. openapi-fetch's client and the routing of a
 * request to its operation (rawCalls.ts) are an optional part, loaded on the first raw call.
 */
export function createRawClient(transport: Transport, baseURL: string): OzRawClient {
  const middlewares: RawFetchMiddleware[] = [];
  // The SDK's middleware of the raw calls: a live list, read by each call.
  const chain: Middleware[] = [];
  let instance: RawCalls | undefined;
  // An optional part: openapi-fetch (a package of its own, which would add to every program's start) loads on the first
  // raw call (most clients never make one).
  const loaded = async (): Promise<RawCalls> => {
    const { createRawCalls } = await loadPart('the raw client', () => import('./rawCalls.js'));
    if (instance === undefined) {
      instance = createRawCalls(transport, baseURL, { operations: OPERATIONS, OzUsageError, unwritableBody, middleware: chain });
      // The middlewares added before it was made, in their order.
      if (middlewares.length > 0) instance.use(...middlewares);
    }
    return instance;
  };
  const method =
    (name: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'request') =>
    (...args: unknown[]) => {
      const [verb, path, init] = name === 'request' ? args : [name, ...args];
      const problem = rawPathProblem(OPERATIONS, String(verb), path, init);
      if (problem !== undefined) return Promise.reject(problem);
      return loaded().then((c) => (c[name] as (...a: unknown[]) => Promise<unknown>)(...args));
    };
  const raw = {
    GET: method('GET'),
    PUT: method('PUT'),
    POST: method('POST'),
    DELETE: method('DELETE'),
    PATCH: method('PATCH'),
    request: method('request'),
    use(...added: Array<Middleware | RawFetchMiddleware>) {
      for (const m of added) {
        if (typeof m === 'function') {
          chain.push(...checkedMiddleware([m], 'raw.use()'));
        } else {
          middlewares.push(m);
          instance?.use(m);
        }
      }
    },
    eject(...removed: Array<Middleware | RawFetchMiddleware>) {
      for (const m of removed) {
        const list: unknown[] = typeof m === 'function' ? chain : middlewares;
        if (list.includes(m)) list.splice(list.indexOf(m), 1);
        if (typeof m !== 'function') instance?.eject(m);
      }
    },
  };
  return raw as OzRawClient;
}
