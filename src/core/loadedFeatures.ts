import { parsedAnswer, streamAnswer } from './answerFeatures.js';
import type { CallExtras } from './callExtras.js';
import { boundBody } from './boundBody.js';
import { answerError, connectionError, failedAttemptError } from './errorHints.js';
import { recoverCall } from './lostAnswerCall.js';
import { throughMiddleware } from './middlewareAttempt.js';
import { exchange } from './rawExchange.js';
import { decodeBody } from './responseBody.js';
import { yamlBody } from './yamlBody.js';
import { followRedirects } from './redirect.js';
import { retryLoop } from './retryLoop.js';
import { settingsOver } from './callSettings.js';
import { usageError } from './usageMessages.js';
import { providerKey } from './providerKey.js';
import { tracedAnswer } from './telemetry/callTracing.js';
import { logAnswer, logAttempt } from './telemetry/debugLines.js';
import { warnDeprecatedUse, warnDeprecationHeaders } from './deprecationWarnings.js';

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
  providerKey,
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
 * The call path's rarely used parts (the stream and the execution poller among them), loaded with the client (the
 * `Oz` client exports the stream and the poller anyway, and its first calls pay no import): its transport's
 * `extras`.
 */
export const LOADED_EXTRAS = (): CallExtras => CALL_EXTRAS;
