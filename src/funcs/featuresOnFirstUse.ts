import type { CallFeatures } from '../core/callFeatures.js';

let loaded: Promise<CallFeatures> | undefined;

// The stream, the execution poller, the last event's data and the call path's rarely used parts (loadedFeatures.ts,
// as the `Oz` client has them), with the generated error classes installed as the code table (they read every
// answer that names an error code: an error answer, a stream's error events, a pointer's failed record).
const features = (): Promise<CallFeatures> =>
  (loaded ??= Promise.all([import('../core/loadedFeatures.js'), import('../generated/errors.js'), import('../core/errors/apiErrors.js')]).then(
    ([{ LOADED_FEATURES }, { ERROR_CODES }, { registerErrorCodes }]) => (registerErrorCodes(ERROR_CODES), LOADED_FEATURES),
  ));

/**
 * The stream, the execution poller and the call path's rarely used parts (the reader of an error answer among
 * them, with every error class), loaded together on the first call or answer that needs any of them: a bundle of a
 * standalone function whose calls are answered 2xx carries no stream parser and no error class, and its errors are
 * those of the `Oz` client (every code's class). The built package puts what is imported here in one lazy chunk
 * (tsup.config.ts).
 */
export const FEATURES_ON_FIRST_USE: CallFeatures = {
  stream: async (response, options) => (await features()).stream!(response, options),
  runs: async () => (await features()).runs!(),
  eventData: async (text) => (await features()).eventData!(text),
  extras: async () => (await features()).extras!(),
};
