/**
 * What a program that imports one standalone function loads up front: the whole call path (no dynamic import on
 * it), and none of the optional parts (`OptionalPart` of src/core/shared/optionalPart.ts) nor other operations, so that
 * the bundle of one function cannot silently grow back. A membership test, not a size test: the sizes are bench/'s
 * (`npm run bench -- --only="bundle size"`).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { initialChunks } from '../../bench/initialChunks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Modules (paths under src/) that the first chunks of `OzCore` + `toolsExecute` must not hold: the optional parts
// (loaded on first use, `loadPart`), and other operations.
const LOADED_ON_FIRST_USE = ['core/telemetry/callSpan.ts', 'profiles/profileLookup.ts', 'profiles/profileStore.ts', 'generated/responseValidators.ts'];
// A function whose operation never streams bundles no stream code (only streaming operations carry its reader).
const NOT_IMPORTED = ['generated/funcs/agents.ts', 'core/result/pagination.ts', 'core/streams/stream.ts', 'core/answer/streamAnswer.ts'];

/** The modules (paths under the repository) in the first chunks of a bundle of `names` from src/funcs. */
async function loadedUpFront(names: readonly string[]) {
  const result = await build({
    stdin: { contents: `export { ${names.join(', ')} } from './src/funcs/index.ts';\n`, resolveDir: root, sourcefile: 'entry.ts', loader: 'ts' },
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
  const upFront = new Set(
    [...initial].flatMap((key) =>
      Object.entries(outputs[key]!.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    ),
  );
  const everywhere = new Set(Object.values(outputs).flatMap((output) => Object.keys(output.inputs)));
  return { upFront, everywhere };
}

describe('a bundle of OzCore and one standalone function (esbuild, code splitting)', () => {
  it('loads up front the call path and none of the optional parts (spans, validators, the profile file) nor other operations', async () => {
    const { upFront, everywhere } = await loadedUpFront(['OzCore', 'toolsExecute']);
    // The test can fail: what a default call needs is there.
    for (const needed of [
      'src/core/transport.ts',
      'src/core/result/apiPromise.ts',
      'src/core/shared/attemptSignal.ts',
      'src/core/recovery/recoverLostAnswer.ts',
      'src/generated/funcs/tools.ts',
    ]) {
      expect(upFront, needed).toContain(needed);
    }
    expect([...LOADED_ON_FIRST_USE, ...NOT_IMPORTED].map((module) => `src/${module}`).filter((path) => upFront.has(path))).toEqual([]);
    // Each optional part is in the build, loaded later (the list names real modules).
    expect(LOADED_ON_FIRST_USE.filter((module) => !everywhere.has(`src/${module}`))).toEqual([]);
  });

  it('of a streaming operation loads the stream code up front', async () => {
    const { upFront } = await loadedUpFront(['OzCore', 'agentsExecute']);
    for (const needed of ['src/core/streams/stream.ts', 'src/core/answer/streamAnswer.ts', 'src/core/streams/sseReader.ts'])
      expect(upFront, needed).toContain(needed);
  });
});
