import type { parsedAnswer, streamAnswer } from './answerFeatures.js';
import type { boundBody } from './boundBody.js';
import type { answerError, connectionError, failedAttemptError } from './errorHints.js';
import type { recoverCall } from './lostAnswerCall.js';
import type { throughMiddleware } from './middlewareAttempt.js';
import type { exchange } from './rawExchange.js';
import type { decodeBody } from './responseBody.js';
import type { yamlBody } from './yamlBody.js';
import type { followRedirects } from './redirect.js';
import type { retryLoop } from './retryLoop.js';
import type { settingsOver } from './callSettings.js';
import type { usageError } from './usageMessages.js';
import type { providerKey } from './providerKey.js';
import type { tracedAnswer } from './telemetry/callTracing.js';
import type { logAnswer, logAttempt } from './telemetry/debugLines.js';
import type { warnDeprecatedUse, warnDeprecationHeaders } from './deprecationWarnings.js';

/**
 * The parts of the call path that a default call (JSON answer, no tracer, no error beyond its status) never
 * uses, out of the transport so that a bundle of one standalone function loads them only when a call needs them
 * (`loadedFeatures.ts` gathers them; each reaches the transport through its `CallPort`).
 */
export interface CallExtras {
  /** A call inside its span, when a tracer provider is registered. */
  readonly tracedAnswer: typeof tracedAnswer;
  /** The raw client's requests. */
  readonly exchange: typeof exchange;
  /** The recovery of a lost answer. */
  readonly recoverCall: typeof recoverCall;
  /** The `Stream` of a stream call. */
  readonly streamAnswer: typeof streamAnswer;
  /** A 202 pointer, or an answer checked against openapi.json. */
  readonly parsedAnswer: typeof parsedAnswer;
  /** The in-process address hint of a connection error. */
  readonly connectionError: typeof connectionError;
  /** The typed error of an error answer (its body read on any wire; the legacy-key hint of a 401). */
  readonly answerError: typeof answerError;
  /** An attempt through middleware. */
  readonly throughMiddleware: typeof throughMiddleware;
  /** A client's or a call's own settings applied (and checked): retry, validation, stream bounds, key, fetch... */
  readonly settingsOver: typeof settingsOver;
  /** The caller's `OzUsageError` of a mistake found on a call's path (its message's words). */
  readonly usageError: typeof usageError;
  /** The key a client's (or a call's) provider gives. */
  readonly providerKey: typeof providerKey;
  /** The rest of a call whose first attempt was not a 2xx answer: retries, the error answer, the key's refresh. */
  readonly retryLoop: typeof retryLoop;
  /** The typed error of a failed attempt. */
  readonly failedAttemptError: typeof failedAttemptError;
  /** The same-origin redirect follower, on a 3xx. */
  readonly followRedirects: typeof followRedirects;
  /** A stream's body bound to the caller's signal. */
  readonly boundBody: typeof boundBody;
  /** The lines of `logLevel: 'debug'`. */
  readonly logAttempt: typeof logAttempt;
  readonly logAnswer: typeof logAnswer;
  /** The warnings of a call that uses what openapi.json marks deprecated, and of an answer that says so. */
  readonly warnDeprecatedUse: typeof warnDeprecatedUse;
  readonly warnDeprecationHeaders: typeof warnDeprecationHeaders;
  /** A 2xx body on any wire but the service's JSON. */
  readonly decodeBody: typeof decodeBody;
  /** A call's body written as YAML. */
  readonly yamlBody: typeof yamlBody;
}
