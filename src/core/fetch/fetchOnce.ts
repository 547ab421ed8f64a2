import type { Step } from '../shared/call.js';

/**
 * The last step: the attempt's fetch, with the client's and the call's `fetchOptions` under it and
 * `redirect: 'manual'` (the step before follows redirects itself). Its body is read by the attempt step.
 */
export const fetchOnce: Step = async (call) => {
  const { settings, sending } = call;
  const init = sending!.init;
  const response = await settings.fetch(call.url, settings.fetchOptions === undefined ? { ...init, redirect: 'manual' } : { ...settings.fetchOptions, ...init, redirect: 'manual' });
  return { response, text: '' };
};
