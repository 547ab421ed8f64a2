import type { ParsedResponse } from '../result/apiPromise.js';
import { checkedBody, eventCheck } from '../validation/answerValidation.js';
import type { Call, CallPort } from '../call.js';
import { OzConnectionError } from '../errors/errors.js';
import { parsePointerLines } from '../executions/asyncPointer.js';
import { withPointerWait } from '../executions/executionPoller.js';
import { Stream, type StreamOptions } from '../streams/stream.js';
import type { StreamInterruption } from '../streams/streamErrors.js';
import type { StreamMode } from '../streams/streamProtocol.js';
import { wireOfContentType } from '../request/wireOfContentType.js';

// Answers that need more than decoding: the `Stream` of an event stream, the pointer of a 202 with its `wait()`, a
// body checked against openapi.json.

/** An async pointer with its `wait()`, which polls its execution through the call's transport. */
export function pointerOf(port: CallPort, call: Call, pointer: unknown): unknown {
  return withPointerWait(pointer, port, call.options);
}

/** The answer of a stream call: its `Stream` (each event checked when validation is on). */
export async function streamAnswer(port: CallPort, call: Call, response: Response): Promise<ParsedResponse<unknown>> {
  const options = streamOptions(call, call.op.streaming === 'chat' ? 'chat' : 'events');
  if (call.settings.validate !== 'off') options.checkItem = await eventCheck(port, call, response);
  return { data: new Stream(response, options), response };
}

/** A 2xx answer that is a run's pointer (202 of an operation that starts runs), or is checked against openapi.json. */
export async function parsedAnswer(port: CallPort, call: Call, response: Response, text: string): Promise<ParsedResponse<unknown>> {
  const contentType = response.headers.get('content-type');
  const pointer = response.status === 202 && call.op.idempotent;
  const wire = wireOfContentType(contentType) ?? call.format;
  if (pointer && (wire === 'markdown' || wire === 'text')) {
    return { data: pointerOf(port, call, parsePointerLines(text)), response };
  }
  const data = call.settings.validate === 'off' ? await port.decode(text, contentType, call.format) : await checkedBody(port, call, response, text, wire);
  return { data: pointer ? pointerOf(port, call, data) : data, response, text };
}

/**
 * An `OzStreamInterruptedError` (or a kind of it), known by its fields: the stream's error classes are loaded with
 * the stream, not with the call path.
 */
function isStreamInterruption(error: unknown): error is OzConnectionError & StreamInterruption {
  return error instanceof OzConnectionError && 'receivedText' in error && 'executionId' in error;
}

/** The `Stream`'s options of a call (its span, when it has one, ends with the stream). */
export function streamOptions(call: Call, mode: StreamMode): StreamOptions {
  const span = call.span;
  const onEnd =
    span === undefined
      ? undefined
      : (error?: unknown) => {
          if (isStreamInterruption(error)) span.interrupted(error);
          span.end(error);
        };
  return { mode, idleTimeout: call.settings.idleTimeout, maxEventBytes: call.settings.maxEventBytes, streamTimeout: call.settings.streamTimeout, retainText: call.options.retainStreamText, signal: call.signal, ...(onEnd ? { onEnd } : {}) };
}
