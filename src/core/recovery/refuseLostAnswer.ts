import type { Step } from '../shared/call.js';
import { finalError } from '../shared/finalError.js';

/**
 * The raw client's place of the recovery step: a lost answer (a retry answered 409 `duplicate_execution_id`) is
 * its `DuplicateExecutionIdError`, as the raw client has no wire to answer the run's record on.
 */
export const refuseLostAnswer: Step = async (call, next) => {
  const answer = await next(call);
  if (answer.lost !== undefined) throw finalError(call, answer.lost);
  return answer;
};
