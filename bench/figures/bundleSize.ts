/**
 * The bundle: what an application bundling the SDK with esbuild ships (minified, ESM, code splitting on), gzipped
 * at level 9, counting everything a call may load: the entry's chunk, the chunks it imports statically and the
 * chunks loaded on first use (js-yaml, validators, spans, sign-in, the profile file, ...), each chunk gzipped on its
 * own as it is served. The SDK is bundled from its built `dist/index.js` (without `oz-sdk/testing`), openai-node
 * from its package entry.
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

/** Issue 35: the whole client, lazy chunks included, at most openai-node's bundle. */
const LIMIT = 1;
/** Issue 35: one standalone function and all it may load, at most half of openai-node's bundle. */
const FUNC_LIMIT = 0.5;

interface BundleSize {
  /** Every chunk, minified. */
  readonly minified: number;
  /** Every chunk, each gzipped on its own. */
  readonly gzipped: number;
  /** The part of `minified` in chunks loaded only on first use (dynamic imports). */
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
    minified += contents.length;
    gzipped += gzipSync(contents, { level: 9 }).length;
    if (!initial.has(key)) lazy += contents.length;
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
      how: `esbuild 0.28 bundle+minify+splitting (ESM, platform node), gzip -9 of every chunk, those loaded on first use included (oz: ${formatBytes(oz.lazy)} min of them; openai: ${formatBytes(openai.lazy)}); ${ctx.pkg.note}`,
    },
    {
      name: FIGURE_NAMES.funcBundleSize,
      ours: `${formatBytes(func.gzipped)} gz, ${formatBytes(func.minified)} min`,
      anchor: `openai ${formatBytes(openai.gzipped)} gz, ${formatBytes(openai.minified)} min`,
      result: formatRatio(funcRatio),
      target: `<= ${FUNC_LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, funcRatio <= FUNC_LIMIT),
      how: `a program that imports OzCore and toolsExecute from oz-sdk/funcs, bundled and counted as above (${formatBytes(func.lazy)} min in chunks loaded on first use); ${ctx.pkg.note}`,
    },
  ];
}
