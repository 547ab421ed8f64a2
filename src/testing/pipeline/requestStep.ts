import type { OperationInfo } from '../contract/operations.js';
import type { Store } from '../state/store.js';
import type { ServerClock } from '../time/clock.js';
import type { RequestContext } from './requestContext.js';

/** What the steps work with: the store (keys, rate-limit windows), the clock and how long a revoked key works on. */
export interface StepNeeds {
  readonly store: Store;
  readonly clock: ServerClock;
  readonly options: { readonly keyCacheMs: number };
}

/**
 * One step every request of an operation goes through before its handler (see pipeline.ts): it reads the
 * request, writes what it found on `ctx`, and throws an `OzMockError` to answer instead of the handler.
 */
export type RequestStep = (ctx: RequestContext, op: OperationInfo, parts: StepNeeds) => void;
