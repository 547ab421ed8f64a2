import { abortableSleep } from '../shared/abortableSleep.js';
import { setAuth } from '../request/auth.js';
import { usageError } from '../shared/usageProblem.js';
import { providerKey } from '../options/providerKey.js';
import type { Answer, Call, Next, Step } from '../shared/call.js';
import { rememberAnswer } from '../result/callResult.js';
import { answerError } from '../attempt/callErrors.js';
import { OzError } from '../errors/errors.js';
import { finalError } from '../shared/finalError.js';
import { backoffDelay, retryDelay, wantsRetry } from './retryPolicy.js';
import { logOf, scrubSecrets } from '../shared/logger.js';

/** What an attempt came to: an answer (its body read, or bound for a stream), or the typed error it failed with. */
type AttemptOutcome = { readonly answer: Answer } | { readonly error: unknown };

/**
 * The retry step: attempts a call until an answer is final, a 2xx, a lost answer to recover, or a typed error
 * thrown. Only a first attempt that is not a 2xx answer goes on to the loop ({@link retryLoop}).
 */
export const retryAttempts: Step = async (call, next) => {
  let first: AttemptOutcome;
  try {
    const answer = await next(call);
    if (answer.response.ok) return answer;
    first = { answer };
  } catch (error) {
    first = { error };
  }
  return await retryLoop(call, next, first);
};

/**
 * The rest of a call whose first attempt was not a 2xx answer (`first`): retries while the policy wants them,
 * waiting the backoff or `Retry-After` between. After a 401, a key provider is asked once more and the call retried
 * once with a new key (outside `maxRetries`). A retry answered 409 `duplicate_execution_id` of an operation that
 * starts runs is the lost answer the step before recovers.
 */
async function retryLoop(call: Call, next: Next, first: AttemptOutcome): Promise<Answer> {
  const policy = call.settings.retry;
  let retries = 0;
  let refreshed = false;
  let outcome = first;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      try {
        outcome = { answer: await next({ ...call, attempt }) };
      } catch (error) {
        outcome = { error };
      }
    }
    if ('error' in outcome) {
      const { error } = outcome;
      if (!(error instanceof OzError) || retries >= call.maxRetries || !wantsRetry(policy, error, attempt, undefined)) throw finalError(call, error);
      const wait = backoffDelay(retries, policy);
      await beforeRetry(
        call,
        attempt,
        error,
        wait,
        error.name,
        `${error.message} Retrying in ${Math.round(wait)} ms (${call.maxRetries - retries} retries left).`,
      );
      retries++;
      continue;
    }
    const { answer } = outcome;
    const { response, text } = answer;
    if (response.ok) return answer;

    const error = await answerError(call, response, scrubSecrets(text, call.settings.credentials.secrets));
    rememberAnswer(error, response);
    if (attempt > 0 && call.op.startsRun && call.idempotencyKey !== undefined && error.code === 'duplicate_execution_id') {
      return { response, text, lost: error };
    }
    if (response.status === 401 && !refreshed && typeof call.settings.credentials.source === 'function' && call.op.auth !== 'none') {
      refreshed = true;
      if (await refreshKey(call)) continue;
    }
    if (retries < call.maxRetries && wantsRetry(policy, error, attempt, response)) {
      const wait = retryDelay(response.headers, retries, policy, policy.maxRetryAfterMs);
      if (wait !== undefined) {
        const reason = `${response.status} ${error.code}`;
        await beforeRetry(call, attempt, error, wait, reason, `${reason}. Retrying in ${Math.round(wait)} ms (${call.maxRetries - retries} retries left).`);
        retries++;
        continue;
      }
      logOf(call.settings.logging).warn(
        `${call.tag} ${response.status} asks to wait more than ${policy.maxRetryAfterMs / 1000} s (Retry-After); not retrying.`,
      );
    }
    throw finalError(call, error);
  }
}

/** After a 401: asks the provider again; true when it gave another key (set on the call, to retry with). */
async function refreshKey(call: Call): Promise<boolean> {
  const key = await providerKey(call.settings.credentials, call.signal, call.timeout);
  if (key === call.apiKey) return false;
  logOf(call.settings.logging).info(`${call.tag} 401: retrying with the apiKey function's new key.`);
  call.apiKey = key;
  try {
    setAuth(call.headers, call.op, key, call.settings.authHeader);
  } catch (problem) {
    throw usageError(problem);
  }
  return true;
}

/** Tells the span, the log and `retry.onRetry` of a retry, then waits `wait` ms (an abort cuts the wait). */
async function beforeRetry(call: Call, attempt: number, error: OzError, wait: number, reason: string, line: string): Promise<void> {
  call.span?.retry(attempt, reason, wait);
  logOf(call.settings.logging).info(`${call.tag} ${line}`);
  call.settings.retry.observe?.({ operationId: call.op.id, attempt, delayMs: wait, error, traceId: call.idempotencyKey }, logOf(call.settings.logging));
  await abortableSleep(wait, call.signal);
}
