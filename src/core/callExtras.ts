// The call path's parts that most calls never use (see `CallExtras` in callFeatures.ts), as one module that
// `src/funcs/featuresOnFirstUse.ts` loads on first use: the `Oz` client gives them loaded (`loadedFeatures.ts`).
export { parsedAnswer, streamAnswer } from './answerFeatures.js';
export { boundBody } from './boundBody.js';
export { answerError, connectionError, failedAttemptError } from './errorHints.js';
export { recoverCall } from './lostAnswerCall.js';
export { throughMiddleware } from './middlewareAttempt.js';
export { followRedirects } from './redirect.js';
export { retryLoop } from './retryLoop.js';
export { exchange } from './rawExchange.js';
export { decodeBody } from './responseBody.js';
export { yamlBody } from './yamlBody.js';
export { settingsOver } from './callSettings.js';
export { tracedAnswer } from './telemetry/callTracing.js';
export { logAnswer, logAttempt } from './telemetry/debugLines.js';
export { warnDeprecatedUse, warnDeprecationHeaders } from './deprecationWarnings.js';
