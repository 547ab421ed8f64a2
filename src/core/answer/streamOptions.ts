import type { Call } from '../shared/call.js';
import { OzConnectionError } from '../errors/errors.js';
import type { StreamOptions } from '../streams/stream.js';
import type { StreamInterruption } from '../streams/streamErrors.js';
import type { StreamMode } from '../streams/streamProtocol.js';

/** An `OzStreamInterruptedError` (or a kind of it), known by its fields. */
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
  return {
    mode,
    idleTimeout: call.settings.idleTimeout,
    maxEventBytes: call.settings.maxEventBytes,
    streamTimeout: call.settings.streamTimeout,
    retainText: call.options.retainStreamText,
    signal: call.signal,
    ...(onEnd ? { onEnd } : {}),
  };
}
