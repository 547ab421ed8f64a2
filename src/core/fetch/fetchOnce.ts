import type { Answer, Step } from '../shared/call.js';

/**
 * The last step: the attempt's fetch, with the client's and the call's `fetchOptions` under it and
 * `redirect: 'manual'` (the step before follows redirects itself). Its body is read by the attempt step.
 */
export const fetchOnce: Step = (call) => {
  const { settings, sending } = call;
  const init = sending!.init;
  return settings
    .fetch(call.url, settings.fetchOptions === undefined ? { ...init, redirect: 'manual' } : { ...settings.fetchOptions, ...init, redirect: 'manual' })
    .then(unread);
};

/** An answer as the fetch gave it, its body unread. */
const unread = (response: Response): Answer => ({ response, text: '' });
