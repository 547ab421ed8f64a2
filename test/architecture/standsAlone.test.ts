// The repository stands alone: a user's clone has no `../shared` beside it, so no test, script, bench or CI step
// may read outside the clone (the specification's facts live in openapi.json).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutRoot as root } from '../support/checkoutCache.js';

const FOLDERS = ['test', 'scripts', 'bench', 'tools', '.ci', 'examples'];
const OUTSIDE = /\.\.\/shared\b|\/work\/shared\b/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(m?[jt]s|json|sh|py)$|^run$/.test(name) ? [path] : [];
  });
}

describe('the repository stands alone', () => {
  it('no test, script, bench or CI step names a path outside the clone', () => {
    const offenders = FOLDERS.flatMap((folder) => (statSync(join(root, folder), { throwIfNoEntry: false }) ? files(join(root, folder)) : []))
      // Stryker's incremental reports (test/mutation/**/*.json) hold copies of sources as they were, not code that runs.
      .filter((file) => !file.endsWith('standsAlone.test.ts') && !/test\/mutation\/.*\.json$/.test(file) && OUTSIDE.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
