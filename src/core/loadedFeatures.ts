import type { CallFeatures, RunSupport } from './callFeatures.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait } from './executions/executionPoller.js';
import { recordFailure } from './executions/executionRecovery.js';
import { lastEventData } from './streams/lastEventData.js';
import { Stream } from './streams/stream.js';

// An object of its own rather than `import * as` runSupport.js: a namespace object would need a bundler helper
// that lazy chunks share, and so a chunk of its own loaded with the client.
const RUN_SUPPORT: RunSupport = { DEFAULT_POLL_SCHEDULE, pollExecution, recordFailure, withPointerWait };

/** The stream and the execution poller, loaded with the client (the `Oz` client exports both anyway). */
export const LOADED_FEATURES: CallFeatures = {
  stream: (response, options) => new Stream(response, options),
  runs: () => RUN_SUPPORT,
  eventData: lastEventData,
};
