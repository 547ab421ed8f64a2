import { keepBody } from '../../harness/journal.js';
import { readBodyText } from '../../wire/bodyText.js';
import type { RequestOutcome } from '../../wire/requestOutcome.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerNext, ServerStep } from '../serverStep.js';

async function readBody(ctx: ServerExchange, next: ServerNext): Promise<RequestOutcome> {
  const request = ctx.ctx;
  request.rawBody = await readBodyText(ctx.conn.reader, ctx.world.parts.options.maxBodyBytes);
  if (ctx.entry !== null) keepBody(ctx.entry, request.rawBody);
  return next();
}

/**
 * Step: the body's bytes, read from what the mount handed over (`conn.reader.body`), bounded by `maxBodyBytes`
 * (413 past it), and kept in the journal entry: after the key (no byte is read for a request without a good one),
 * before the fault (which may match on the body). An operation that takes no body reads none.
 */
export const bodyBytes: ServerStep<ServerExchange> = (ctx, next) => (ctx.op.body ? readBody(ctx, next) : next());
