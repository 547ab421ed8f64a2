import { attemptErrorOf } from './attemptError.js';
import type { AttemptSignal } from './attemptSignal.js';
import type { Call } from '../call.js';
import { OzError, OzUsageError } from '../errors/errors.js';
import { OzMiddlewareError } from '../errors/middlewareError.js';
import { attemptThrough, type ChainParts } from './middlewareChain.js';
import { fetchWithinOrigin } from './redirect.js';

const CHAIN_PARTS: ChainParts = { OzError, OzUsageError, OzMiddlewareError, fetchWithinOrigin, attemptErrorOf };

/** One attempt through the call's middleware (only calls with middleware come here): see middlewareChain.ts. */
export async function throughMiddleware(call: Call, attempt: number, init: RequestInit, signal: AttemptSignal): Promise<Response> {
  return await attemptThrough(call, attempt, init, signal, CHAIN_PARTS);
}
