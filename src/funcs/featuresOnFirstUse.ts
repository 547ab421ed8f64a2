import type { CallFeatures } from '../core/callFeatures.js';

let streamModule: Promise<typeof import('../core/streams/stream.js')> | undefined;
let errorTable: Promise<void> | undefined;

// The generated error classes, installed as the code table. Loaded with the call path's rarely used parts, which
// read every answer that names an error code: an error answer, and (before the stream or the poller is asked for)
// a stream or a 202 pointer, whose error events and failed records name codes too.
const errorClasses = (): Promise<void> =>
  (errorTable ??= Promise.all([import('../generated/errors.js'), import('../core/errors/apiErrors.js')]).then(([{ ERROR_CODES }, { registerErrorCodes }]) => registerErrorCodes(ERROR_CODES)));

/**
 * The stream, the execution poller and the call path's rarely used parts (the reader of an error answer among
 * them, with every error class), each loaded on the first call or answer that needs it: a bundle of a standalone
 * function whose calls are answered 2xx carries no stream parser and no error class, and its errors are those of
 * the `Oz` client (every code's class). The built package puts every module imported here in one lazy chunk
 * (tsup.config.ts).
 */
export const FEATURES_ON_FIRST_USE: CallFeatures = {
  stream: async (response, options) => new (await (streamModule ??= import('../core/streams/stream.js'))).Stream(response, options),
  runs: () => import('../core/executions/runSupport.js'),
  eventData: async (text) => (await import('../core/streams/lastEventData.js')).lastEventData(text),
  extras: async () => (await Promise.all([import('../core/callExtras.js'), errorClasses()]))[0],
};
