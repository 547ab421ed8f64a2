import { OzMockError } from '../../contract/errors.js';
import { scriptedRetryAfter } from '../../contract/scriptedRetryAfter.js';
import type { FaultRequestFacts, FaultSpec } from '../../harness/faults.js';
import type { JournalEntry } from '../../harness/journal.js';
import { DROPPED, type RequestOutcome } from '../../wire/requestOutcome.js';
import type { ChainNeeds, ServerExchange } from '../exchange.js';
import type { RequestContext } from '../requestContext.js';
import type { ServerNext, ServerStep } from '../serverStep.js';
import { bearerKey, storedKey } from './authenticate.js';

function injectedError(fault: Extract<FaultSpec, { type: 'error' }>): OzMockError {
  const { missing, hint, contract, connect } = fault;
  const retryAfter = scriptedRetryAfter(fault.status, fault.retryAfter);
  return new OzMockError(fault.status, fault.code, fault.message ?? `Injected fault: ${fault.code}.`, {
    ...(missing ? { missing } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(contract !== undefined ? { contract } : {}),
    ...(connect ? { connect } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}

/** The account of the key a request carries, or `null` (what a fault may match on, and its journal entry records). */
export function faultAccount(parts: ChainNeeds, ctx: RequestContext): string | null {
  const value = bearerKey(ctx.header('authorization') ?? '') ?? ctx.header('x-api-key')?.trim();
  return value ? (storedKey(parts.store.data, value)?.account ?? null) : null;
}

/** What a fault may match a request on: the account of its key, its JSON body (worked out on demand). */
function requestFacts(parts: ChainNeeds, ctx: RequestContext): FaultRequestFacts {
  return {
    account: () => faultAccount(parts, ctx),
    body: () => {
      try {
        return ctx.rawBody ? (JSON.parse(ctx.rawBody) as unknown) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The request's fault: the next of `server.faults` that matches, else what a chaos rule draws (noted in the entry). */
function takeFault(parts: ChainNeeds, ctx: RequestContext, entry: JournalEntry): FaultSpec | null {
  const facts = requestFacts(parts, ctx);
  const fault = parts.faults.take(entry, facts);
  if (fault) return fault;
  const drawn = parts.chaos.draw(entry, facts);
  if (drawn === null) return null;
  entry.chaos = drawn.chaos;
  return drawn.fault;
}

/**
 * What a fault does before the request is handled: a drop, a delay (a request aborted meanwhile is dropped), an
 * error (thrown), a cut armed; the others act on the answer (the `dribble` and `loseAnswer` steps).
 */
async function beforeHandling(ctx: ServerExchange, entry: JournalEntry, fault: FaultSpec, next: ServerNext): Promise<RequestOutcome> {
  entry.fault = fault.type;
  if (fault.type === 'drop') {
    ctx.conn.drop();
    return DROPPED;
  }
  if (fault.type === 'delay') {
    const { clock } = ctx.world.parts;
    // Counted from the request's arrival, so a test's advance() right after the call covers it.
    await clock.sleep(fault.ms - (clock.now() - entry.at));
    if (ctx.request.signal.aborted) {
      ctx.conn.drop();
      return DROPPED;
    }
  }
  if (fault.type === 'error') throw injectedError(fault);
  if (fault.type === 'cut') ctx.ctx.cutAfter = fault.afterEvents;
  return next();
}

/**
 * Step: the request's fault (`server.faults`, then the chaos rules), after its key and its body's bytes (a fault
 * may match on the account and the body): a drop, a delay, an error answered in the handler's place, a cut armed.
 */
export const fault: ServerStep<ServerExchange> = (ctx, next) => {
  const { entry } = ctx;
  if (entry === null) return next();
  const spec = takeFault(ctx.world.parts, ctx.ctx, entry);
  if (spec === null) return next();
  ctx.fault = spec;
  return beforeHandling(ctx, entry, spec, next);
};
