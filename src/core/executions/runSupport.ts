// The execution poller's parts the transport uses (see `RunSupport` in callFeatures.ts), as one module that
// `src/funcs/featuresOnFirstUse.ts` loads on first use.
export { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait } from './executionPoller.js';
export { recordFailure } from './executionRecovery.js';
export { parsePointerLines } from './asyncPointer.js';
