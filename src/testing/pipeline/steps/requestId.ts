import type { RequestOutcome } from '../../wire/requestOutcome.js';
import type { ServerExchange } from '../exchange.js';
import type { ServerStep } from '../serverStep.js';
import { newId } from '../../support/ids.js';

/**
 * Step: the request's id, before anything answers it; on the way out every answer carries it as `x-request-id`
 * (the API's answers are made with it; the Host check's 403, the control plane's and the dashboard's get it here),
 * so that a bug report can name any answer.
 */
export const requestId: ServerStep<ServerExchange> = async (ctx, next) => {
  ctx.requestId = newId('req');
  return stamp(await next(), ctx.requestId);
};

function stamp(answer: RequestOutcome, id: string): RequestOutcome {
  if (answer.kind === 'dropped') return answer;
  if (answer.kind === 'written') {
    if (answer.parts.headers['x-request-id'] !== undefined) return answer;
    return { kind: 'written', parts: { ...answer.parts, headers: { ...answer.parts.headers, 'x-request-id': id } } };
  }
  if (answer.kind === 'stream') {
    if (answer.headers['x-request-id'] !== undefined) return answer;
    return { ...answer, headers: { ...answer.headers, 'x-request-id': id } };
  }
  const { response } = answer;
  if (response.headers.has('x-request-id')) return answer;
  try {
    response.headers.set('x-request-id', id);
    return answer;
  } catch {
    // An immutable Response (a redirect made by Response.redirect): the same answer with the header.
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', id);
    return { kind: 'response', response: copy };
  }
}
