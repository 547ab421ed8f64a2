/**
 * The core bundle: what an application bundling the SDK with esbuild ships (minified, ESM, code splitting on, so
 * that modules imported only on first use go to chunks of their own and are not counted: js-yaml, the OpenTelemetry
 * span code, the command-line sign-in, the raw client's openapi-fetch and routing, the markdown and text error
 * readers), gzipped at level 9. The SDK is bundled from its built `dist/index.js` (without `oz-sdk/testing`), openai-node from its
 * package entry; only the entry chunk and the chunks it imports statically are counted.
 *
 * The second row bundles a program that imports one standalone function of `oz-sdk/funcs` (`toolsExecute`, the
 * execute call) and the `OzCore` it needs, from the built `dist/funcs/index.js`, the same way. What such a bundle
 * must not load up front is held by test/client/funcsBundleMembership.test.ts (membership, not size).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatBytes, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { initialChunks } from '../initialChunks.js';

const LIMIT = 0.35;
/** Issue 28: a bundle of one standalone function is at most a quarter of openai-node's core bundle. */
const FUNC_LIMIT = 0.25;

interface BundleSize {
  readonly minified: number;
  readonly gzipped: number;
  /** Bytes of minified chunks loaded only on first use (dynamic imports). */
  readonly lazy: number;
}

/** A program that imports `names` from the module `file`, as its entry (esbuild's stdin). */
interface ImportingProgram {
  readonly file: string;
  readonly names: readonly string[];
}

async function bundleSize(entry: string | ImportingProgram): Promise<BundleSize> {
  const input =
    typeof entry === 'string'
      ? { entryPoints: { entry } }
      : {
          stdin: {
            contents: `export { ${entry.names.join(', ')} } from ${JSON.stringify(entry.file)};\n`,
            resolveDir: dirname(entry.file),
            sourcefile: 'entry.js',
            loader: 'js' as const,
          },
        };
  const result = await esbuild.build({
    ...input,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    splitting: true,
    outdir: '/bench-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const files = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const byKey = (key: string) => [...files].find(([path]) => path.endsWith(key.replace(/^.*bench-out/, '')))?.[1];
  const { initial } = initialChunks(outputs);
  let minified = 0;
  let gzipped = 0;
  let lazy = 0;
  for (const key of Object.keys(outputs)) {
    if (!key.endsWith('.js')) continue;
    const contents = byKey(key);
    if (!contents) throw new Error(`esbuild output ${key} not found`);
    if (initial.has(key)) {
      minified += contents.length;
      gzipped += gzipSync(contents, { level: 9 }).length;
    } else {
      lazy += contents.length;
    }
  }
  return { minified, gzipped, lazy };
}

export async function bundleSizeRows(ctx: FigureContext): Promise<FigureRow[]> {
  ctx.log('bundle: esbuild --bundle --minify --splitting of oz-sdk and openai');
  const oz = await bundleSize(ctx.pkg.indexFile);
  const openai = await bundleSize(fileURLToPath(import.meta.resolve('openai')));
  const ratio = oz.gzipped / openai.gzipped;
  const func = await bundleSize({ file: ctx.pkg.funcsFile, names: ['OzCore', 'toolsExecute'] });
  const funcRatio = func.gzipped / openai.gzipped;
  return [
    {
      name: FIGURE_NAMES.bundleSize,
      ours: `${formatBytes(oz.gzipped)} gz, ${formatBytes(oz.minified)} min`,
      anchor: `openai ${formatBytes(openai.gzipped)} gz, ${formatBytes(openai.minified)} min`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `esbuild 0.28 bundle+minify+splitting (ESM, platform node), gzip -9 of the entry and its static chunks; lazy chunks not counted (oz: ${formatBytes(oz.lazy)} min: js-yaml, spans, sign-in, raw client, markdown/text errors); ${ctx.pkg.note}`,
    },
    {
      name: FIGURE_NAMES.funcBundleSize,
      ours: `${formatBytes(func.gzipped)} gz, ${formatBytes(func.minified)} min`,
      anchor: `openai ${formatBytes(openai.gzipped)} gz, ${formatBytes(openai.minified)} min`,
      result: formatRatio(funcRatio),
      target: `<= ${FUNC_LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, funcRatio <= FUNC_LIMIT),
      how: `a program that imports OzCore and toolsExecute from oz-sdk/funcs, bundled as above; lazy chunks not counted (${formatBytes(func.lazy)} min: OzCore's first-use chunk with the Stream and SSE parser, the execution poller and the call path's rarely used parts gathered by core/loadedFeatures.ts (a call's own settings and their checks, the words of usage errors, log lines, the retry loop after a first attempt that is not 2xx with the error answer reader, error classes and table, the redirect follower, other wires than JSON, YAML bodies, debug lines, spans, pointers, validation, lost-answer recovery, middleware runner, key providers, in-process and legacy-key hints), then the withResponse/asResponse/result readers, validators, answer checker, deprecation warnings, key providers, retry-option checks, the profile file); ${ctx.pkg.note}`,
    },
  ];
}
