import { OzTimeoutError } from '../errors/errors.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait, type ExecutionPoll } from '../executions/executionPoller.js';
import { checkedRecord, recordFailure } from '../executions/executionRecovery.js';
import type { RequestOptions } from '../shared/requestOptions.js';
import type { ParsedResponse } from '../result/apiPromise.js';
import { finalError } from '../retry/finalError.js';
import { readStream } from '../answer/readStream.js';
import { copyInto } from '../telemetry/traceSpan.js';
import { logOf } from '../shared/logger.js';
import { copyTraceContext } from '../telemetry/tracing.js';
import type { Call, CallPort } from '../shared/call.js';
import { pointerOfRecord, recordAsEvents, resultOnWire } from './recordOnWire.js';

/**
 * A retry answered 409 `duplicate_execution_id`: the first attempt did run and only its answer was lost. Reads
 * that execution through the execution poller, for at most one attempt's `timeout`, and answers its result on the
 * caller's wire (as server-sent events for a stream call; the pointer, with its `wait()`, for an `async: true`
 * call).
 */
export async function recoverCall(port: CallPort, call: Call, conflict: OzAPIError): Promise<ParsedResponse<unknown>> {
  const id = call.traceId!;
  const log = logOf(call.settings.logging);
  log.warn(`${call.tag} The answer was lost and the retry found execution ${id} already started; reading its result.`);
  const deadline = Date.now() + call.timeout;
  const pollOptions: RequestOptions = { ...call.options, format: 'json', bodyFormat: undefined, idempotencyKey: undefined };
  let recordText: string | undefined;
  // One read of the record (`GET /v1/executions/{id}`, json), a call of its own with the call's retries and trace context.
  const read = async (): Promise<ExecutionPoll> => {
    const poll = await port.prepare(port.config.executionRecord, { path: { id } }, pollOptions, 'parse');
    const context = new Headers();
    copyTraceContext(new Headers(call.headers), context);
    copyInto(poll.headers, context);
    const sent = await port.send(poll);
    if (sent.kind === 'lost') throw conflict; // not reachable: the record route is not idempotent
    const { response, text } = sent.answer;
    recordText = text;
    const record = checkedRecord(await port.decode(text, response.headers.get('content-type'), 'json'));
    return { record, response, requestId: response.headers.get('x-request-id') };
  };
  if (call.asyncRun) {
    const { record, response } = await read();
    return { data: withPointerWait(pointerOfRecord(record), port, call.options), response };
  }
  const beforeWait = (wait: number, { record }: ExecutionPoll) => {
    if (Date.now() + wait <= deadline) return;
    throw finalError(
      call,
      new OzTimeoutError(`Execution ${id} is still ${record.status} after ${call.timeout} ms; read it later with client.executions.get().`, { cause: conflict }),
    );
  };
  const schedule = { ...DEFAULT_POLL_SCHEDULE, interval: port.config.pollIntervalMs ?? DEFAULT_POLL_SCHEDULE.interval };
  const { record, response, requestId } = await pollExecution(read, schedule, { signal: call.signal, beforeWait });
  if (call.mode === 'stream') {
    if (record.status === 'cancelled') throw finalError(call, recordFailure(record, requestId));
    const events = new Response(recordAsEvents(record, requestId), {
      headers: { 'content-type': 'text/event-stream', 'x-execution-id': id, ...(requestId ? { 'x-request-id': requestId } : {}) },
    });
    return await readStream(port, call, events);
  }
  const failure = recordFailure(record, requestId);
  if (failure) throw finalError(call, failure);
  // Its response is the execution record's answer (a late asResponse() hands over that record).
  return { data: resultOnWire(record, call.format, requestId), response, text: recordText };
}
