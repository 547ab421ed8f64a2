import type { Step } from '../shared/call.js';
import { decodeBody } from '../shared/responseBody.js';
import { parsedAnswer } from './parsedAnswer.js';
import { readStream } from './readStream.js';

/**
 * The decoding step: a call's final 2xx answer on its wire. A stream call's answer becomes its `Stream` (read by
 * its operation's own reader); a run's pointer gets its `wait()` and, with validation on, a body is checked
 * (`parsedAnswer.ts`); most answers are decoded only. An answer already decoded (a lost answer's run read by the
 * recovery step) or left unread for `asResponse()` goes up as it is.
 */
export const decodeAnswer: Step = async (call, next) => {
  const answer = await next(call);
  if (answer.decoded !== undefined || answer.unread) return answer;
  const { response, text } = answer;
  if (call.mode === 'stream') return await readStream(call, response);
  // A run's pointer (202) and validation need more than decoding.
  if ((response.status === 202 && call.op.startsRun) || call.settings.validate !== 'off') return await parsedAnswer(call, response, text);
  return { response, text, decoded: { data: await decodeBody(text, response.headers.get('content-type'), call.format) } };
};
