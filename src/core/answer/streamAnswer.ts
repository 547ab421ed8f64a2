import type { Call, CallPort } from '../shared/call.js';
import type { ParsedResponse } from '../result/apiPromise.js';
import { Stream } from '../streams/stream.js';
import { eventCheck } from '../validation/answerValidation.js';
import { streamOptions } from './streamOptions.js';

/** The answer of a stream call: its `Stream` (each event checked when validation is on). */
export async function streamAnswer(port: CallPort, call: Call, response: Response): Promise<ParsedResponse<unknown>> {
  const options = streamOptions(call, call.op.streaming === 'chat' ? 'chat' : 'events');
  if (call.settings.validate !== 'off') options.checkItem = await eventCheck(port, call, response);
  return { data: new Stream(response, options), response };
}
