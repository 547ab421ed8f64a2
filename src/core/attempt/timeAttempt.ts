import { AttemptSignal } from '../shared/attemptSignal.js';
import type { Step } from '../shared/call.js';
import { logOf } from '../shared/logger.js';
import { boundBody } from './boundBody.js';
import { failedAttemptError } from './callErrors.js';
import { handedOver } from '../shared/handedOver.js';
import { logAnswer, logAttempt } from '../telemetry/debugLines.js';
import { warnDeprecationHeaders } from '../telemetry/deprecation.js';

/**
 * One attempt under its timeout and the caller's signal (one timer, one listener: `shared/attemptSignal.ts`): the
 * steps after this one fetch, and the whole body is read here, up to `maxResponseBytes` (a stream's body, or one
 * `asResponse()` asked for, stays open, bound to the caller's signal). A failure is the attempt's typed error.
 */
export const timeAttempt: Step = async (call, next) => {
  call.headers['x-oz-retry-count'] = String(call.attempt);
  const signal = new AttemptSignal(call.signal, call.timeout);
  const started = call.debug ? Date.now() : 0;
  if (call.debug) logAttempt(call, call.attempt);
  let bound = false;
  try {
    const init: RequestInit = { method: call.op.method, headers: call.headers, body: call.body, signal: signal.signal };
    const { response } = await signal.guard(next({ ...call, sending: { signal, init } }));
    if (call.debug) logAnswer(call, response, started);
    // The service says the operation is going away: warned once, before the call's promise settles.
    if (response.headers.has('deprecation') || response.headers.has('sunset')) {
      warnDeprecationHeaders(call.op, response.headers, logOf(call.settings.logging));
    }
    if (response.ok && (call.mode === 'stream' || (call.handoff !== undefined && handedOver(call.handoff)))) {
      bound = true;
      return { response: boundBody(signal, response), text: '', unread: call.mode !== 'stream' };
    }
    return { response, text: await signal.readText(response, call.maxResponseBytes) };
  } catch (cause) {
    // The deadline cannot pass while the error's reader loads: what the attempt came to is decided here.
    signal.stopTimer();
    throw failedAttemptError(call, signal, cause);
  } finally {
    if (!bound) signal.release();
  }
};
