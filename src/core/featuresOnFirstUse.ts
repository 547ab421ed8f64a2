import type { CallFeatures } from './callFeatures.js';

let streamModule: Promise<typeof import('./streams/stream.js')> | undefined;

/**
 * The stream and the execution poller, each loaded on the first answer that needs it (an event stream; an async
 * pointer or a lost answer), and the call path's rarely used parts on the first call that needs one (a span, a
 * validated answer, an error hint): a bundle of a standalone function that never streams carries no stream parser.
 */
export const FEATURES_ON_FIRST_USE: CallFeatures = {
  stream: async (response, options) => new (await (streamModule ??= import('./streams/stream.js'))).Stream(response, options),
  runs: () => import('./executions/runSupport.js'),
  eventData: async (text) => (await import('./streams/lastEventData.js')).lastEventData(text),
  extras: () => import('./callExtras.js'),
};
