/**
 * The package as users get it: the benchmarks measure the built `dist/` (`oz-sdk` and `oz-sdk/testing`, tsup's
 * output), not the TypeScript sources run through tsx (whose `keepNames` adds a `__name` call to every function
 * created, a cost the published code does not have).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/** Where the built entries are, and how they were built. */
export interface BuiltPackage {
  /** The built `oz-sdk` entry (`dist/index.js`). */
  readonly indexFile: string;
  /** The built `oz-sdk/funcs` entry (`dist/funcs/index.js`): OzCore and the standalone functions. */
  readonly funcsFile: string;
  /** What `import()` is given for it: `oz-sdk` (the package's own name, resolved through its `exports`). */
  readonly indexSpecifier: string;
  /** The built `oz-sdk/testing` entry, as a URL for `import()`. */
  readonly testingSpecifier: string;
  /** The built `oz` bin (`dist/cli/oz.js`). */
  readonly cliFile: string;
  /** The built `oz-mock` bin (`dist/testing/cli.js`). */
  readonly ozMockFile: string;
  /** How it was built, for the table. */
  readonly note: string;
}

/** The SDK's runtime modules, typed by their sources. */
export interface PackageModules {
  readonly sdk: typeof import('../src/index.js');
  readonly testing: typeof import('../src/testing/index.js');
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Whether `dist/` is missing an entry or older than anything it is built from. */
function distIsStale(root: string): boolean {
  const entries = ['index.js', join('funcs', 'index.js'), join('testing', 'index.js'), join('testing', 'cli.js'), join('cli', 'oz.js')].map((file) =>
    join(root, 'dist', file),
  );
  if (!entries.every((file) => existsSync(file))) return true;
  const sources = Math.max(
    newestMtime(join(root, 'src')),
    ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((file) => statSync(join(root, file)).mtimeMs),
  );
  return Math.min(...entries.map((file) => statSync(file).mtimeMs)) < sources;
}

let built: BuiltPackage | undefined;

/**
 * The built package. The full run builds `dist/` with `npm run build` when an entry is missing or older than the
 * sources. The smoke run never rebuilds `dist/` (a build takes 15 s or more): when it is stale, it bundles the two
 * entries with esbuild as tsup does (ESM, node20, dependencies external) into `node_modules/.cache/oz-bench/`.
 */
export async function builtPackage(root: string, smoke: boolean, log: (line: string) => void): Promise<BuiltPackage> {
  if (built) return built;
  const dist = join(root, 'dist');
  const fromDist = (note: string): BuiltPackage => ({
    indexFile: join(dist, 'index.js'),
    funcsFile: join(dist, 'funcs', 'index.js'),
    indexSpecifier: 'oz-sdk',
    testingSpecifier: pathToFileURL(join(dist, 'testing', 'index.js')).href,
    cliFile: join(dist, 'cli', 'oz.js'),
    ozMockFile: join(dist, 'testing', 'cli.js'),
    note,
  });
  if (!distIsStale(root)) return (built = fromDist('dist/'));
  if (!smoke) {
    log('dist/ is missing or older than src/: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
    if (build.status !== 0) throw new Error(`npm run build failed (${build.status})`);
    return (built = fromDist('dist/, built by this run'));
  }
  const outdir = join(root, 'node_modules', '.cache', 'oz-bench');
  mkdirSync(outdir, { recursive: true });
  await esbuild.build({
    entryPoints: {
      index: join(root, 'src', 'index.ts'),
      'funcs/index': join(root, 'src', 'funcs', 'index.ts'),
      testing: join(root, 'src', 'testing', 'index.ts'),
      'testing/cli': join(root, 'src', 'testing', 'cli.ts'),
      'cli/oz': join(root, 'src', 'cli', 'main.ts'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return (built = {
    indexFile: join(outdir, 'index.js'),
    funcsFile: join(outdir, 'funcs', 'index.js'),
    indexSpecifier: pathToFileURL(join(outdir, 'index.js')).href,
    testingSpecifier: pathToFileURL(join(outdir, 'testing.js')).href,
    cliFile: join(outdir, 'cli', 'oz.js'),
    ozMockFile: join(outdir, 'testing', 'cli.js'),
    note: 'smoke: dist/ stale, esbuild of src/',
  });
}

/** Imports the built entries. */
export async function importPackage(pkg: BuiltPackage): Promise<PackageModules> {
  const [sdk, testing] = await Promise.all([import(pkg.indexSpecifier), import(pkg.testingSpecifier)]);
  return { sdk: sdk as PackageModules['sdk'], testing: testing as PackageModules['testing'] };
}
