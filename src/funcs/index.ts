/**
 * `oz-sdk/funcs`: the operations of the Oz API as standalone functions over a small client, {@link OzCore}, for
 * programs that bundle one or two calls: a bundler keeps only the functions imported. `toolsExecute(core, tool,
 * body, options)` is `oz.tools.execute(tool, body, options)`, with the same parameters, result and errors.
 *
 * @packageDocumentation
 */
export { OzCore, type OzCoreOptions } from './ozCore.js';
export type { CoreClient } from '../core/coreClient.js';
// One function per operation of openapi.json, named after its `Oz` method (generated, listed name by name).
export * from '../generated/funcs/index.js';
