// The call path's parts that most calls never use (see `CallExtras` in callFeatures.ts), as one module that
// `src/funcs/featuresOnFirstUse.ts` loads on first use: the `Oz` client gives them loaded (`loadedFeatures.ts`).
export { parsedAnswer, streamAnswer } from './answerFeatures.js';
export { answerError, connectionError } from './errorHints.js';
export { recoverCall } from './lostAnswerCall.js';
export { throughMiddleware } from './middlewareAttempt.js';
export { exchange } from './rawExchange.js';
export { checkedStreamBounds } from './streams/streamBounds.js';
export { tracedAnswer } from './telemetry/callTracing.js';
