import type { RequestOutcome } from '../wire/requestOutcome.js';
import type { RequestHandler } from './routing.js';
import { newId } from '../support/ids.js';

/**
 * Every answer of the server carries `x-request-id`: the API's answers make theirs with the request's context; the
 * surfaces beside it (the control plane, the dashboard) get one here, so that a bug report can name any answer.
 */
export function withRequestIds(handler: RequestHandler): RequestHandler {
  return async (request, conn) => stamp(await handler(request, conn));
}

function stamp(answer: RequestOutcome): RequestOutcome {
  if (answer.kind === 'dropped') return answer;
  if (answer.kind === 'written') {
    if (answer.parts.headers['x-request-id'] !== undefined) return answer;
    return { kind: 'written', parts: { ...answer.parts, headers: { ...answer.parts.headers, 'x-request-id': newId('req') } } };
  }
  if (answer.kind === 'stream') {
    if (answer.headers['x-request-id'] !== undefined) return answer;
    return { ...answer, headers: { ...answer.headers, 'x-request-id': newId('req') } };
  }
  const { response } = answer;
  if (response.headers.has('x-request-id')) return answer;
  try {
    response.headers.set('x-request-id', newId('req'));
    return answer;
  } catch {
    // An immutable Response (a redirect made by Response.redirect): the same answer with the header.
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', newId('req'));
    return { kind: 'response', response: copy };
  }
}
