import { OzUsageError } from '../errors/errors.js';
import type { RetryOptions, RetryPolicy } from './retryOptionTypes.js';
import { checkedRetryPolicy } from './retryOptionsCheck.js';

export type { RetryInfo, RetryOptions, RetryPolicy } from './retryOptionTypes.js';

/** `base` with the fields `options` gives, each checked (`where` names the option in an `OzUsageError`). */
export async function retryPolicyOf(base: RetryPolicy, options: RetryOptions, where: string): Promise<RetryPolicy> {
  return checkedRetryPolicy(base, options, where, OzUsageError);
}
