// Where `npm run build:binary` writes the executable, and the executable for a test or a benchmark: built first
// when it is missing (CI builds it before its tests; a developer's first run builds it here, in about 10 s).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { binaryName } from './sea.js';

/** The executable of `npm run build:binary` in a clone whose root is `root`. */
export const binaryFileOf = (root: string): string => join(root, 'dist-bin', binaryName(process.platform));

/** The executable, built by `npm run build:binary` when it is missing. */
export function ozMockBinary(root: string, log: (line: string) => void = () => {}): string {
  const file = binaryFileOf(root);
  if (existsSync(file)) return file;
  log(`${file} is missing: npm run build:binary`);
  execFileSync('npm', ['run', 'build:binary'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return file;
}
