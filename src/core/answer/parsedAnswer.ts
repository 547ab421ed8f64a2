import type { Answer, Call } from '../shared/call.js';
import { parsePointerLines } from '../executions/asyncPointer.js';
import { withPointerWait } from '../executions/executionPoller.js';
import { decodeBody } from '../shared/responseBody.js';
import { wireOfContentType } from '../shared/wire.js';
import { checkedBody } from '../validation/answerValidation.js';

/**
 * A 2xx answer that needs more than decoding: a run's pointer (202 of an operation that starts runs), given a
 * `wait()` that polls its run when its caller asks, or a body checked against openapi.json.
 */
export async function parsedAnswer(call: Call, response: Response, text: string): Promise<Answer> {
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
