import { OzTimeoutError } from '../errors/errors.js';
import type { OzAPIError } from '../errors/apiErrors.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait, type ExecutionPoll } from '../executions/executionPoller.js';
import { checkedRecord, recordFailure } from '../executions/executionRecovery.js';
import { callRequest } from '../request/callRequest.js';
import type { Answer, Call, Next, Step } from '../shared/call.js';
import { finalError } from '../shared/finalError.js';
import { logOf } from '../shared/logger.js';
import type { RequestOptions } from '../shared/requestOptions.js';
import { decodeBody } from '../shared/responseBody.js';
import { copyTraceContext } from '../telemetry/tracing.js';
import { pointerOfRecord, recordAsEvents, resultOnWire } from './recordOnWire.js';

/**
 * The recovery step. A retry answered 409 `duplicate_execution_id`: the first attempt did run and only its answer
 * was lost. Reads that run's record (`GET /v1/executions/{id}`, each read through the steps after this one), for
 * at most one attempt's `timeout`, and answers its result on the caller's wire: decoded, as the events of a stream
 * (the step before reads them as a `Stream`), or the pointer with its `wait()` for an `async: true` call.
 */
export const recoverLostAnswer: Step = async (call, next) => {
  const answer = await next(call);
  return answer.lost === undefined ? answer : await recovered(call, answer.lost, next);
};

async function recovered(call: Call, conflict: OzAPIError, next: Next): Promise<Answer> {
  const id = call.idempotencyKey!;
  logOf(call.settings.logging).warn(`${call.tag} The answer was lost and the retry found execution ${id} already started; reading its result.`);
  const deadline = Date.now() + call.timeout;
  const poll = await recordCall(call, id);
  let recordText = '';
  const read = async (): Promise<ExecutionPoll> => {
    const sent = await next(poll);
    if (sent.lost !== undefined) throw conflict; // not reachable: the record's read starts no run
    const { response, text } = sent;
    recordText = text;
    const record = checkedRecord(await decodeBody(text, response.headers.get('content-type'), 'json'));
    return { record, response, requestId: response.headers.get('x-request-id') };
  };
  if (call.asyncRun) {
    const { record, response } = await read();
    return { response, text: recordText, decoded: { data: withPointerWait(pointerOfRecord(record), call.client.executions, call.options) } };
  }
  const beforeWait = (wait: number, { record }: ExecutionPoll) => {
    if (Date.now() + wait <= deadline) return;
    throw finalError(
      call,
      new OzTimeoutError(`Execution ${id} is still ${record.status} after ${call.timeout} ms; read it later with client.executions.get().`, {
        cause: conflict,
      }),
    );
  };
  const schedule = { ...DEFAULT_POLL_SCHEDULE, interval: call.client.pollIntervalMs ?? DEFAULT_POLL_SCHEDULE.interval };
  const { record, response, requestId } = await pollExecution(read, schedule, { signal: call.signal, beforeWait });
  if (call.mode === 'stream') {
    if (record.status === 'cancelled') throw finalError(call, recordFailure(record, requestId));
    const events = new Response(recordAsEvents(record, requestId), {
      headers: { 'content-type': 'text/event-stream', 'x-execution-id': id, ...(requestId ? { 'x-request-id': requestId } : {}) },
    });
    return { response: events, text: '' };
  }
  const failure = recordFailure(record, requestId);
  if (failure) throw finalError(call, failure);
  // Its response is the execution record's answer (a late asResponse() hands over that record).
  return { response, text: recordText, decoded: { data: resultOnWire(record, call.format, requestId) } };
}

/**
 * The read of the run's record, a call of its own on the json wire with the call's settings, key, options and
 * retries, and its trace context (it belongs to the call's span).
 */
async function recordCall(call: Call, id: string): Promise<Call> {
  const op = call.client.executionRecord;
  const options: RequestOptions = { ...call.options, format: 'json', bodyFormat: undefined, idempotencyKey: undefined };
  const request = await callRequest(call.settings, op, { path: { id } }, options, 'parse', call.apiKey);
  copyTraceContext(call.headers, request.headers);
  return {
    ...call,
    ...request,
    op,
    mode: 'parse',
    idempotencyKey: undefined,
    asyncRun: false,
    handoff: undefined,
    options,
    span: undefined,
    attempt: 0,
    sending: undefined,
    tag: `[oz ${op.id} #${++call.client.counter.calls}]`,
  };
}
