// Where `npm run build:binary` writes the executable, and the executable for a test or a benchmark: built first
// when it is missing or older than what it is built from (CI builds it before its tests; elsewhere a run after a
// change of src/ rebuilds it here, in about 10 s), so nothing measures or tests an old build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { binaryName } from './sea.js';

/** The executable of `npm run build:binary` in a clone whose root is `root`. */
export const binaryFileOf = (root: string): string => join(root, 'dist-bin', binaryName(process.platform));

/** The newest change of what the executable is built from: src/, openapi.json, the lock file, the build script. */
function newestSourceMs(root: string): number {
  const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((path) => join(root, 'src', path));
  return Math.max(
    ...[...sources, ...['openapi.json', 'package-lock.json', 'scripts/build-binary.mjs'].map((path) => join(root, path))].map((path) => statSync(path).mtimeMs),
  );
}

/** The executable, built by `npm run build:binary` when it is missing or stale. */
export function ozMockBinary(root: string, log: (line: string) => void = () => {}): string {
  const file = binaryFileOf(root);
  if (existsSync(file) && statSync(file).mtimeMs >= newestSourceMs(root)) return file;
  log(`${file} is missing or older than src/: npm run build:binary`);
  execFileSync('npm', ['run', 'build:binary'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return file;
}
