import { OzAbortError, OzConnectionError, OzUsageError, type OzError } from './errors/errors.js';
import { DEFAULT_BACKOFF, DEFAULT_JITTER, isRetryableStatus, RETRY_AFTER_CAP_MS } from './retryPolicy.js';
import type { RetryOptions, RetryPolicy } from './retryOptionTypes.js';

export type { RetryInfo, RetryOptions, RetryPolicy } from './retryOptionTypes.js';

/** The defaults: 0.5 s doubling to 8 s, 25 % jitter, `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { ...DEFAULT_BACKOFF, jitter: DEFAULT_JITTER, maxRetryAfterMs: RETRY_AFTER_CAP_MS };

let check: Promise<typeof import('./retryOptionsCheck.js')> | undefined;

/** `base` with the fields `options` gives, each checked (`where` names the option in an `OzUsageError`). */
export async function retryPolicyOf(base: RetryPolicy, options: RetryOptions, where: string): Promise<RetryPolicy> {
  const { checkedRetryPolicy } = await (check ??= import('./retryOptionsCheck.js'));
  return checkedRetryPolicy(base, options, where, OzUsageError);
}

/**
 * Whether an attempt that failed with `error` (on `answer`, when one came) is worth another: the SDK's rule, then
 * the answer's `x-should-retry: true|false`, then `shouldRetry`. An abort by the caller is never retried.
 */
export function wantsRetry(policy: RetryPolicy, error: OzError, attempt: number, answer: Response | undefined): boolean {
  if (error instanceof OzAbortError) return false;
  let retry = answer === undefined ? error instanceof OzConnectionError : isRetryableStatus(answer.status);
  const header = answer?.headers.get('x-should-retry');
  if (header === 'true' || header === 'false') retry = header === 'true';
  return policy.verdict === undefined ? retry : policy.verdict(error, attempt, retry);
}
