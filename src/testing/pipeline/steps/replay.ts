import type { RequestOutcome } from '../../wire/requestOutcome.js';
import type { IdempotencyStore } from '../../state/idempotencyStore.js';
import type { ServerClock } from '../../time/clock.js';
import { splitUrl } from '../../support/requestUrl.js';
import type { ServerExchange } from '../exchange.js';
import type { RequestContext } from '../requestContext.js';
import type { ServerNext, ServerStep } from '../serverStep.js';

/** What serving a replay works with: the kept answers and the clock. */
export interface ReplayNeeds {
  readonly idempotency: IdempotencyStore;
  readonly clock: ServerClock;
}

/**
 * Step: a non-run write (`x-oz-replay`) of a known caller with a trace id is served once: a repeat answers the kept
 * answer again, on the wire it negotiated, in the place of the stubs and the handler. After the negotiation (a
 * replay answers on its own wire), before the stubs (a stubbed answer is kept as any other).
 */
export const replay: ServerStep<ServerExchange> = (ctx, next) => {
  const request = ctx.ctx;
  const { traceId: key } = request;
  if (key === null || !ctx.op.replay || request.principal === null) return next();
  // The path as sent (the entry's is redacted): a replay is keyed by what the caller asked for.
  return serveOnce(request, ctx.world.parts, key, splitUrl(ctx.request.url).path, next);
};

/**
 * Serves a non-run write with a trace id once: the first request runs `handle` and its 2xx answer is kept (an
 * error, or a request that throws, keeps nothing); a replay answers the kept answer again, with the same status,
 * on the wire negotiated for the replay, with `x-idempotent-replayed: true`.
 */
export async function serveOnce(ctx: RequestContext, parts: ReplayNeeds, traceId: string, path: string, handle: ServerNext): Promise<RequestOutcome> {
  const claim = parts.idempotency.claim(ctx.account.name, traceId, ctx.request.method, requestTarget(ctx, path), bodyIdentity(ctx), parts.clock.now());
  if (claim.kind === 'replay') {
    ctx.replayed = true;
    const { answer } = claim;
    ctx.executionId = answer.executionId ?? null;
    return answer.kind === 'payload' ? ctx.reply(answer.status, answer.payload, REPLAYED) : ctx.json(answer.status, answer.value, REPLAYED);
  }
  let response: RequestOutcome;
  try {
    response = await handle();
  } catch (err) {
    parts.idempotency.release(claim.key);
    throw err;
  }
  const answered = ctx.answered;
  if (answered !== null && answered.status >= 200 && answered.status < 300) {
    // A copy: the records a handler answered with change later (a cancelled execution finishes, ...).
    parts.idempotency.keep(claim.key, structuredClone({ ...answered, executionId: ctx.executionId }), parts.clock.now());
  } else {
    parts.idempotency.release(claim.key);
  }
  return response;
}

const REPLAYED: Readonly<Record<string, string>> = { 'x-idempotent-replayed': 'true' };

/**
 * What a replay's body must equal: the parsed document (JSON or YAML) with its keys in a stable order, so the same
 * content in another key order or on the other body format is the same request; a body the operation does not
 * parse (the proxy passes it on) as sent.
 */
function bodyIdentity(ctx: RequestContext): string {
  return ctx.op?.body ? canonicalJson(ctx.body) : (ctx.rawBody ?? '');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The path with its query (the proxy passes it upstream), less `format`: the wire is chosen per request, and a
 * replay answers on its own.
 */
function requestTarget(ctx: RequestContext, path: string): string {
  const url = ctx.request.url;
  const q = url.indexOf('?');
  if (q < 0) return path;
  const query = new URLSearchParams(url.slice(q + 1));
  query.delete('format');
  const rest = query.toString();
  return rest === '' ? path : `${path}?${rest}`;
}
