import type { Call, CallPort } from '../shared/call.js';
import { parsePointerLines } from '../executions/asyncPointer.js';
import { withPointerWait } from '../executions/executionPoller.js';
import { wireOfContentType } from '../shared/wire.js';
import type { ParsedResponse } from '../result/apiPromise.js';
import { checkedBody } from '../validation/answerValidation.js';

/**
 * A 2xx answer that needs more than decoding: a run's pointer (202 of an operation that starts runs), given a
 * `wait()` that polls its execution through the call's transport, or a body checked against openapi.json.
 */
export async function parsedAnswer(port: CallPort, call: Call, response: Response, text: string): Promise<ParsedResponse<unknown>> {
  const contentType = response.headers.get('content-type');
  const pointer = response.status === 202 && call.op.idempotent;
  const wire = wireOfContentType(contentType) ?? call.format;
  if (pointer && (wire === 'markdown' || wire === 'text')) {
    return { data: withPointerWait(parsePointerLines(text), port, call.options), response };
  }
  const data = call.settings.validate === 'off' ? await port.decode(text, contentType, call.format) : await checkedBody(port, call, response, text, wire);
  return { data: pointer ? withPointerWait(data, port, call.options) : data, response, text };
}
