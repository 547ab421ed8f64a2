import type { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait } from './executions/executionPoller.js';
import type { recordFailure } from './executions/executionRecovery.js';
import type { EventData } from './responseBody.js';
import type { StreamOptions } from './streams/stream.js';

/**
 * The execution poller's parts the transport uses: a pointer's `wait()`, and the polls that recover a lost
 * answer (`runSupport.ts` gathers them).
 */
export interface RunSupport {
  readonly withPointerWait: typeof withPointerWait;
  readonly pollExecution: typeof pollExecution;
  readonly recordFailure: typeof recordFailure;
  readonly DEFAULT_POLL_SCHEDULE: typeof DEFAULT_POLL_SCHEDULE;
}

/**
 * What some answers need beyond parsing, given to the transport by the layer above so that the call path imports
 * none of it: the `Oz` client gives them loaded (`loadedFeatures.ts`); `OzCore`, whose standalone functions are
 * bundled one by one, loads them on first use (`featuresOnFirstUse.ts`).
 */
export interface CallFeatures {
  /** The `Stream` over a server-sent event answer (operations that stream). */
  readonly stream?: ((response: Response, options: StreamOptions) => unknown) | undefined;
  /** The execution poller (async pointers' `wait()`, lost-answer recovery: operations that start runs). */
  readonly runs?: (() => RunSupport | Promise<RunSupport>) | undefined;
  /** The `data` of the last event of a buffered server-sent event answer (MCP answers one `message` event so). */
  readonly eventData?: EventData | undefined;
}
