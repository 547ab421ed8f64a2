/**
 * What a program that imports one standalone function loads up front: the call path of a default call, and none
 * of what only an option or an answer asks for. Those modules sit in chunks loaded on first use (OzCore's
 * `features`: featuresOnFirstUse.ts), so that the bundle of one function cannot silently grow back. A membership
 * test, not a size test: the sizes are bench/'s (`npm run bench -- --only="bundle size"`).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { initialChunks } from '../../bench/initialChunks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Modules (paths under src/) that the first chunks of `OzCore` + `toolsExecute` must not hold.
const LOADED_ON_FIRST_USE = [
  // The call path's rarely used parts (loadedFeatures.ts gathers them) and what only they use.
  'core/loadedFeatures.ts',
  'core/answerFeatures.ts',
  'core/answerValidation.ts',
  'core/answerChecker.ts',
  'core/errors/responseValidationError.ts',
  'core/rawExchange.ts',
  'core/telemetry/callTracing.ts',
  'core/telemetry/callSpan.ts',
  'core/lostAnswerCall.ts',
  'core/lostAnswerRecovery.ts',
  'core/errorHints.ts',
  'core/inProcessAddress.ts',
  'core/errors/legacyKeyError.ts',
  'core/executions/asyncPointer.ts',
  // What only a first attempt that is not a 2xx answer needs: the retry loop, the failed attempt's typed error, the
  // redirect follower, a stream's body bound to the caller's signal, the debug lines.
  'core/retryLoop.ts',
  'core/attemptError.ts',
  'core/finalError.ts',
  'core/redirect.ts',
  'core/boundBody.ts',
  'core/telemetry/debugLines.ts',
  // Answers on another wire than the service's JSON, and YAML bodies.
  'core/responseBody.ts',
  'core/wireOfContentType.ts',
  'core/yamlBody.ts',
  'core/yaml.ts',
  'core/retryPolicy.ts',
  // A call's own settings (key, base URL, middleware, retry, logger, validation, stream bounds, fetch), the logger
  // of the lines a call writes, the words of a caller's mistake, the deprecation warnings' loader.
  'core/callSettings.ts',
  'core/telemetry/logger.ts',
  'core/usageMessages.ts',
  'core/deprecationWarnings.ts',
  // The readers of withResponse(), asResponse() and result().
  'core/answerReaders.ts',
  // The stream, the execution poller, the last event's data.
  'core/streams/stream.ts',
  'core/streams/sseParser.ts',
  'core/streams/streamErrors.ts',
  'core/executions/executionPoller.ts',
  'core/executions/pollLoop.ts',
  'core/streams/lastEventData.ts',
  // Option checks, middleware, deprecation warnings, key providers, the profile file, validators.
  'core/middlewareChain.ts',
  'core/retryOptionsCheck.ts',
  'core/keyProvider.ts',
  'core/providerKey.ts',
  'core/deprecation.ts',
  'profiles/profileLookup.ts',
  'generated/responseValidators.ts',
  'core/errors/errorLines.ts',
  // The errors of the service's answers: the error-body reader, the status and code classes, the table (loaded with
  // the first error answer, run or stream).
  'core/errors/apiErrors.ts',
  'core/errors/errorBody.ts',
  'generated/errors.ts',
  'generated/errors/toolNotFoundError.ts',
  'generated/errors/invalidParamsError.ts',
  'generated/errors/forbiddenHostError.ts',
  'generated/errors/routeNotFoundError.ts',
  // Other operations and their functions.
  'generated/funcs/agents.ts',
  'core/pagination.ts',
];

describe('a bundle of OzCore and one standalone function (esbuild, code splitting)', () => {
  it('loads up front none of what only an option or an answer asks for: extras, stream, poller, validators, middleware, other operations, error classes', async () => {
    const result = await build({
      stdin: { contents: "export { OzCore, toolsExecute } from './src/funcs/index.ts';\n", resolveDir: root, sourcefile: 'entry.ts', loader: 'ts' },
      bundle: true,
      splitting: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      outdir: '/funcs-out',
      write: false,
      metafile: true,
      external: ['js-yaml', 'openapi-fetch'],
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const { initial } = initialChunks(outputs);
    const upFront = new Set([...initial].flatMap((key) => Object.entries(outputs[key]!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path)));
    // The test can fail: what a default call needs is there.
    for (const needed of ['src/core/transport.ts', 'src/core/apiPromise.ts', 'src/core/attemptSignal.ts', 'src/generated/funcs/tools.ts']) {
      expect(upFront, needed).toContain(needed);
    }
    expect(LOADED_ON_FIRST_USE.map((module) => `src/${module}`).filter((path) => upFront.has(path))).toEqual([]);
    // Each of them is in the build, loaded later (the list names real modules).
    const everywhere = new Set(Object.values(outputs).flatMap((output) => Object.keys(output.inputs)));
    const lazyOnly = LOADED_ON_FIRST_USE.filter((module) => module !== 'generated/funcs/agents.ts' && module !== 'core/pagination.ts');
    expect(lazyOnly.filter((module) => !everywhere.has(`src/${module}`))).toEqual([]);
  });
});
