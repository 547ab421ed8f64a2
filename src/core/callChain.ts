import { OzError } from './errors/errors.js';
import type { Answer, Call, Next, Step } from './shared/call.js';
import { traceSpan } from './span/traceSpan.js';
import { decodeAnswer } from './answer/decodeAnswer.js';
import { recoverLostAnswer } from './recovery/recoverLostAnswer.js';
import { refuseLostAnswer } from './recovery/refuseLostAnswer.js';
import { retryAttempts } from './retry/retryAttempts.js';
import { timeAttempt } from './attempt/timeAttempt.js';
import { runMiddleware } from './middleware/runMiddleware.js';
import { followRedirects } from './redirect/followRedirects.js';
import { fetchOnce } from './fetch/fetchOnce.js';

/**
 * The steps of a call, in order: each does its part around the steps after it (src/core/README.md lists them, and
 * test/core/callChain.test.ts holds the list and the page to each other).
 */
export const CALL_STEPS: readonly Step[] = [
  traceSpan, // the call inside its OpenTelemetry span, when a tracer is registered
  decodeAnswer, // a 2xx body decoded on its wire: data, a Stream, a pointer with wait(), checked when validating
  recoverLostAnswer, // a retry answered 409 duplicate_execution_id: the run's record read instead
  retryAttempts, // attempts until an answer is final: a 2xx, a lost answer, or a typed error
  timeAttempt, // one attempt under its timeout and the caller's signal, its body read up to maxResponseBytes
  runMiddleware, // the client's and the call's middleware, when there is any
  followRedirects, // redirects followed within the origin
  fetchOnce, // the fetch
];

/**
 * The steps of a raw client's request (`Transport.exchange`): its body is the caller's to read, so nothing decodes it,
 * and a lost answer is the `DuplicateExecutionIdError` (the raw client has no wire to answer a record on).
 */
export const RAW_STEPS: readonly Step[] = [traceSpan, refuseLostAnswer, retryAttempts, timeAttempt, runMiddleware, followRedirects, fetchOnce];

/**
 * The steps made one function (as hono's `compose`): each step's `next` runs the steps after it, and may be called
 * again (a retry, a redirect's next hop) or with another call (a lost answer's read of its run). Made once per
 * list: a call allocates nothing to run it.
 */
export function composeSteps(steps: readonly Step[]): Next {
  let rest: Next = () => Promise.reject(new OzError('A call ran past the last step of its chain without an answer.'));
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    const next = rest;
    rest = (call: Call): Promise<Answer> => step(call, next);
  }
  return rest;
}

/** A call sent through every step. */
export const runCall: Next = composeSteps(CALL_STEPS);

/** A raw client's request sent through its steps. */
export const runRawCall: Next = composeSteps(RAW_STEPS);
