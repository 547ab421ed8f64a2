import type { Answer, Call, Step } from '../shared/call.js';
import { parsePointerLines } from '../executions/asyncPointer.js';
import { withPointerWait } from '../executions/executionPoller.js';
import { decodeBody } from '../shared/responseBody.js';
import { wireOfContentType } from '../shared/wire.js';
import { checkedBody } from '../validation/answerValidation.js';
import { readStream } from './readStream.js';

/**
 * The decoding step: a call's final 2xx answer on its wire. A stream call's answer becomes its `Stream` (read by
 * its operation's own reader); a run's pointer gets its `wait()` and, with validation on, a body is checked
 * ({@link parsedAnswer}); most answers are decoded only. An answer already decoded (a lost answer's run read by the
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

/**
 * A 2xx answer that needs more than decoding: a run's pointer (202 of an operation that starts runs), given a
 * `wait()` that polls its run when its caller asks, or a body checked against openapi.json.
 */
async function parsedAnswer(call: Call, response: Response, text: string): Promise<Answer> {
  const contentType = response.headers.get('content-type');
  const pointer = response.status === 202 && call.op.startsRun;
  const wire = wireOfContentType(contentType) ?? call.format;
  const executions = call.client.executions;
  if (pointer && (wire === 'markdown' || wire === 'text')) {
    return { response, text, decoded: { data: withPointerWait(parsePointerLines(text), executions, call.options) } };
  }
  const data = call.settings.validate === 'off' ? await decodeBody(text, contentType, call.format) : await checkedBody(call, response, text, wire);
  return { response, text, decoded: { data: pointer ? withPointerWait(data, executions, call.options) : data } };
}
