import type { Answer, Call } from '../shared/call.js';
import { Stream } from '../streams/stream.js';
import { eventCheck } from '../validation/answerValidation.js';
import { streamOptions } from './streamOptions.js';

/** The answer of a stream call: its `Stream` (each event checked when validation is on), which ends the call's span. */
export async function streamAnswer(call: Call, response: Response): Promise<Answer> {
  const options = streamOptions(call, call.op.streaming === 'chat' ? 'chat' : 'events');
  if (call.settings.validate !== 'off') options.checkItem = await eventCheck(call, response);
  return { response, text: '', decoded: { data: new Stream(response, options) }, streamed: true };
}
