// The typed stubs a user writes (test/types/stubs.consumer.ts) against the declarations a user installs, under each
// TypeScript the package promises: 5.0, the repository's own 5.9 and the newest 7.x (pinned in test/apps/types,
// installed there with `npm ci` when missing). The declarations are emitted once per change of the sources, into
// the checkout's cache in the system's temporary folder. Each `@ts-expect-error` of the file must still be an
// error, so a type that grew too loose fails here as one too strict does.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutCachePath, checkoutRoot as root } from '../support/checkoutCache.js';

const compilers = join(root, 'test/apps/types');
const COMPILERS = {
  '5.0': join(compilers, 'node_modules/typescript-5.0/bin/tsc'),
  '5.9': join(root, 'node_modules/typescript/bin/tsc'),
  '7': join(compilers, 'node_modules/typescript-7/bin/tsc'),
};

function newest(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry)))) : stat.mtimeMs;
}

/** The folder of the declarations the repository's tsc emits for the two entries (the client and oz-sdk/testing), emitted when stale. */
function declarations(): string {
  const out = checkoutCachePath('declarations');
  const stamp = join(out, 'stamp');
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'openapi.json')));
  if (existsSync(stamp) && statSync(stamp).mtimeMs > sources) return out;
  execFileSync(process.execPath, [COMPILERS['5.9'], '-p', join(root, 'test/types/tsconfig.declarations.json'), '--outDir', out], { cwd: root, stdio: 'pipe' });
  writeFileSync(stamp, '');
  return out;
}

/** A consumer's project of `files`, `oz-sdk` and `oz-sdk/testing` mapped to the declarations, under `strict`. */
function consumerProject(dts: string, name: string, files: readonly string[]): string {
  const dir = checkoutCachePath(name);
  mkdirSync(dir, { recursive: true });
  const compilerOptions = {
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom', 'dom.iterable'],
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(compilers, 'node_modules/@types')],
    paths: { 'oz-sdk': [join(dts, 'src/index.d.ts')], 'oz-sdk/testing': [join(dts, 'src/testing/index.d.ts')] },
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: files.map((file) => join(root, 'test/types', file)) }, null, 2));
  return dir;
}

const projects = { every: '', since51: '' };
beforeAll(() => {
  if (!existsSync(COMPILERS['5.0']) || !existsSync(COMPILERS['7']))
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: compilers, stdio: 'pipe' });
  const dts = declarations();
  projects.every = consumerProject(dts, 'stub-types-consumer', ['stubs.consumer.ts']);
  projects.since51 = consumerProject(dts, 'stub-types-consumer-5.1', ['stubs.consumer.ts', 'stubs.consumer.since51.ts']);
}, 300_000);

describe('typed stubs under each TypeScript a user may have', () => {
  it.each(Object.entries(COMPILERS))(
    'TypeScript %s compiles the stubs a user writes, and refuses the wrong ones',
    (version, tsc) => {
      const project = version === '5.0' ? projects.every : projects.since51;
      const run = spawnSync(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], { encoding: 'utf8' });
      expect(run.stdout + run.stderr).toBe('');
      expect(run.status).toBe(0);
    },
    120_000,
  );
});
