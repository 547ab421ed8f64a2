import type { ParsedResponse } from '../result/apiPromise.js';
import { pointerOf, streamOptions } from '../answer/answerFeatures.js';
import type { Call, CallPort } from '../call.js';
import { OzTimeoutError } from '../errors/errors.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution } from '../executions/executionPoller.js';
import { checkedRecord, recordFailure } from '../executions/executionRecovery.js';
import { Stream } from '../streams/stream.js';
import { finalError } from '../retry/finalError.js';
import { type OzAPIError } from '../errors/apiErrors.js';
import { recoverLostAnswer, type RecoveryParts } from './lostAnswerRecovery.js';
import type { RequestOptions } from '../options/requestOptions.js';
import { copyInto } from '../telemetry/callTracing.js';
import { copyTraceContext } from '../telemetry/tracing.js';
import { logOf } from '../telemetry/logger.js';

/**
 * A retry answered 409 `duplicate_execution_id`: the first attempt did run and only its answer was lost. Reads
 * that execution through the execution poller (`lostAnswerRecovery.ts`).
 */
export async function recoverCall(port: CallPort, call: Call, conflict: OzAPIError): Promise<ParsedResponse<unknown>> {
  const pollOptions: RequestOptions = { ...call.options, format: 'json', bodyFormat: undefined, idempotencyKey: undefined };
  const recoveryPort = {
    readRecord: async (id: string) => {
      const poll = await port.prepare(port.config.executionRecord, { path: { id } }, pollOptions, 'parse');
      const context = new Headers();
      copyTraceContext(new Headers(call.headers), context);
      copyInto(poll.headers, context);
      const sent = await port.send(poll);
      if (sent.kind === 'lost') throw conflict; // not reachable: the record route is not idempotent
      return sent.answer;
    },
    pointer: async (pointer: unknown) => pointerOf(port, call, pointer),
    stream: async (events: Response) => new Stream(events, streamOptions(call, 'events')),
    final: (error: unknown) => finalError(call, error),
    schedule: { ...DEFAULT_POLL_SCHEDULE, interval: port.config.pollIntervalMs ?? DEFAULT_POLL_SCHEDULE.interval },
  };
  const parts: RecoveryParts = { pollExecution, recordFailure, checkedRecord, decode: async (text, contentType) => await port.decode(text, contentType, 'json'), OzTimeoutError };
  return await recoverLostAnswer({ ...call, traceId: call.traceId!, log: logOf(call.settings.logging) }, conflict, recoveryPort, parts);
}
