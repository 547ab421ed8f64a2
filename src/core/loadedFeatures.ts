import { parsedAnswer, streamAnswer } from './answerFeatures.js';
import type { RunSupport } from './call.js';
import type { CallExtras, CallFeatures } from './callFeatures.js';
import { boundBody } from './boundBody.js';
import { answerError, connectionError, failedAttemptError } from './errorHints.js';
import { parsePointerLines } from './executions/asyncPointer.js';
import { DEFAULT_POLL_SCHEDULE, pollExecution, withPointerWait } from './executions/executionPoller.js';
import { recordFailure } from './executions/executionRecovery.js';
import { recoverCall } from './lostAnswerCall.js';
import { throughMiddleware } from './middlewareAttempt.js';
import { exchange } from './rawExchange.js';
import { decodeBody } from './responseBody.js';
import { yamlBody } from './yamlBody.js';
import { followRedirects } from './redirect.js';
import { retryLoop } from './retryLoop.js';
import { lastEventData } from './streams/lastEventData.js';
import { Stream } from './streams/stream.js';
import { settingsOver } from './callSettings.js';
import { usageError } from './usageMessages.js';
import { tracedAnswer } from './telemetry/callTracing.js';
import { logAnswer, logAttempt } from './telemetry/debugLines.js';
import { warnDeprecatedUse, warnDeprecationHeaders } from './deprecationWarnings.js';

// An object of its own rather than `import * as` runSupport.js: a namespace object would need a bundler helper
// that lazy chunks share, and so a chunk of its own loaded with the client.
const RUN_SUPPORT: RunSupport = { DEFAULT_POLL_SCHEDULE, pollExecution, recordFailure, withPointerWait, parsePointerLines };
const CALL_EXTRAS: CallExtras = {
  tracedAnswer,
  exchange,
  recoverCall,
  streamAnswer,
  parsedAnswer,
  connectionError,
  answerError,
  throughMiddleware,
  settingsOver,
  usageError,
  retryLoop,
  failedAttemptError,
  followRedirects,
  boundBody,
  logAttempt,
  logAnswer,
  decodeBody,
  yamlBody,
  warnDeprecatedUse,
  warnDeprecationHeaders,
};

/**
 * The stream, the execution poller and the call path's rarely used parts, loaded with the client (the `Oz` client
 * exports the first two anyway, and its first calls pay no import).
 */
export const LOADED_FEATURES: CallFeatures = {
  stream: (response, options) => new Stream(response, options),
  runs: () => RUN_SUPPORT,
  eventData: lastEventData,
  extras: () => CALL_EXTRAS,
};
