import { OzUsageError } from './errors/errors.js';
import type { RetryOptions, RetryPolicy } from './retryOptionTypes.js';

export type { RetryInfo, RetryOptions, RetryPolicy } from './retryOptionTypes.js';

let check: Promise<typeof import('./retryOptionsCheck.js')> | undefined;

/** `base` with the fields `options` gives, each checked (`where` names the option in an `OzUsageError`). */
export async function retryPolicyOf(base: RetryPolicy, options: RetryOptions, where: string): Promise<RetryPolicy> {
  const { checkedRetryPolicy } = await (check ??= import('./retryOptionsCheck.js'));
  return checkedRetryPolicy(base, options, where, OzUsageError);
}
