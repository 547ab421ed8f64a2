import type { Answer, Call, StreamingOperation } from '../shared/call.js';
import type { Operation } from '../shared/operation.js';
import { OzError } from '../errors/errors.js';

const isStreaming = (op: Operation): op is StreamingOperation => typeof (op as Partial<StreamingOperation>).streamAnswer === 'function';

/** A stream call's answer, read by its operation's own stream reader (see `StreamingOperation` in shared/call.ts). */
export async function readStream(call: Call, response: Response): Promise<Answer> {
  if (!isStreaming(call.op)) throw new OzError(`${call.op.id} answers no event stream: its operation has no stream reader.`);
  return await call.op.streamAnswer(call, response);
}
