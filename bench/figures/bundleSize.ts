/**
 * The bundle: what an application bundling the SDK with esbuild ships (minified, ESM, code splitting on), gzipped
 * at level 9, each chunk on its own as it is served. The judged figure is every byte a call with its defaults loads:
 * the entry's chunk and the chunks it imports statically (the whole call path: no part of it loads on first use).
 * Each optional part (js-yaml, the response validators, spans, sign-in, the profile file, the raw client) is a chunk
 * of its own that a call loads only when it uses that part (`format: 'yaml'`, `validate`, ...): the row prints what
 * each adds, and the bundle with all of them. The SDK is bundled from its built `dist/index.js` (without
 * `oz-sdk/testing`), openai-node (which has no optional part) from its package entry.
 *
 * The second row bundles a program that imports one standalone function of `oz-sdk/funcs` (`toolsExecute`, the
 * execute call) and the `OzCore` it needs, from the built `dist/funcs/index.js`, the same way. What such a bundle
 * must not load up front is held by test/funcs/funcsBundleMembership.test.ts (membership, not size).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatBytes, formatRatio, judged, type FigureRow } from '../figureRow.js';
import { initialChunks } from '../initialChunks.js';

/** Issue 35: what a call of the whole client loads, at most openai-node's bundle. */
const LIMIT = 1;
/** Issue 35: what a call of one standalone function loads, at most half of openai-node's bundle. */
const FUNC_LIMIT = 0.5;

interface BundleSize {
  /** What a call with its defaults loads (the entry's chunk and its static imports), minified. */
  readonly minified: number;
  /** The same, each chunk gzipped on its own. */
  readonly gzipped: number;
  /** Each optional part (a chunk loaded on first use), by the module it starts with: minified and gzipped. */
  readonly parts: ReadonlyArray<{ readonly name: string; readonly minified: number; readonly gzipped: number }>;
}

/** Every chunk: a call's and every optional part's, gzipped. */
const everything = (size: BundleSize) => size.gzipped + size.parts.reduce((sum, part) => sum + part.gzipped, 0);

/** The optional parts of a row, for its note: `js-yaml +14.8 kB, ...`. */
const partsNote = (size: BundleSize) => (size.parts.length === 0 ? 'none' : size.parts.map((part) => `${part.name} +${formatBytes(part.gzipped)}`).join(', '));

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
  const parts: Array<BundleSize['parts'][number]> = [];
  for (const key of Object.keys(outputs)) {
    if (!key.endsWith('.js')) continue;
    const contents = byKey(key);
    if (!contents) throw new Error(`esbuild output ${key} not found`);
    const zipped = gzipSync(contents, { level: 9 }).length;
    if (initial.has(key)) {
      minified += contents.length;
      gzipped += zipped;
    } else {
      // A lazy chunk's name is its module's, with the hashes of the SDK's build and of this one.
      const name = (outputs[key]!.entryPoint ?? key).replace(/^.*\//, '').replace(/(-[A-Z0-9]{8})*\.js$/, '');
      parts.push({ name, minified: contents.length, gzipped: zipped });
    }
  }
  parts.sort((a, b) => b.gzipped - a.gzipped);
  return { minified, gzipped, parts };
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
      ours: `${formatBytes(oz.gzipped)} gz, ${formatBytes(oz.minified)} min (with every optional part ${formatBytes(everything(oz))} gz)`,
      anchor: `openai ${formatBytes(openai.gzipped)} gz, ${formatBytes(openai.minified)} min`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `esbuild 0.28 bundle+minify+splitting (ESM, platform node) of dist/index.js, gzip -9 of each chunk; judged: every byte a call with its defaults loads (the entry's chunk and its static imports: the whole call path); each optional part is a chunk a call loads only when it uses the part (oz: ${partsNote(oz)}; openai: ${partsNote(openai)}); ${ctx.pkg.note}`,
    },
    {
      name: FIGURE_NAMES.funcBundleSize,
      ours: `${formatBytes(func.gzipped)} gz, ${formatBytes(func.minified)} min (with every optional part ${formatBytes(everything(func))} gz)`,
      anchor: `openai ${formatBytes(openai.gzipped)} gz, ${formatBytes(openai.minified)} min`,
      result: formatRatio(funcRatio),
      target: `<= ${FUNC_LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, funcRatio <= FUNC_LIMIT),
      how: `a program that imports OzCore and toolsExecute from oz-sdk/funcs, bundled and counted as above (its optional parts: ${partsNote(func)}); ${ctx.pkg.note}`,
    },
  ];
}
