import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { FigureContext } from './figureContext.js';

/** The SDK's built ESM entry the import and bundle figures measure. */
export interface BuiltEntry {
  /** The file (`dist/index.js`). */
  readonly file: string;
  /** What `import()` is given: `oz-sdk` (the package's own name, resolved through its `exports`). */
  readonly specifier: string;
  /** How it was built, for the table. */
  readonly note: string;
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Whether `dist/index.js` is older than anything it is built from. */
function distIsStale(root: string): boolean {
  const built = join(root, 'dist', 'index.js');
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newestMtime(join(root, 'src')),
    ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((file) => statSync(join(root, file)).mtimeMs),
  );
  return statSync(built).mtimeMs < sources;
}

let cached: BuiltEntry | undefined;

/**
 * The built SDK. The full run builds `dist/` with `npm run build` when it is missing or older than the sources.
 * The smoke run never rebuilds `dist/` (a build takes 15 s or more): when it is stale, it bundles `src/index.ts`
 * with esbuild as tsup does (ESM, node20, dependencies left external) into `node_modules/.cache/oz-bench/`.
 */
export async function builtEntry(ctx: FigureContext): Promise<BuiltEntry> {
  if (cached) return cached;
  const dist = join(ctx.root, 'dist', 'index.js');
  if (!distIsStale(ctx.root)) return (cached = { file: dist, specifier: 'oz-sdk', note: 'dist/index.js' });
  if (!ctx.mode.smoke) {
    ctx.log('dist/ is missing or older than src/: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ctx.root, stdio: ['ignore', process.stderr, process.stderr] });
    if (build.status !== 0) throw new Error(`npm run build failed (${build.status})`);
    return (cached = { file: dist, specifier: 'oz-sdk', note: 'dist/index.js, built by this run' });
  }
  const dir = join(ctx.root, 'node_modules', '.cache', 'oz-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.js');
  await esbuild.build({
    entryPoints: [join(ctx.root, 'src', 'index.ts')],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return (cached = { file, specifier: pathToFileURL(file).href, note: 'smoke: dist/ stale, esbuild of src/index.ts' });
}
