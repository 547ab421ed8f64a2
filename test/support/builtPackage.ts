/**
 * The built package for tests of the built code: the repository itself when dist/ is newer than every source (CI
 * builds before `npm test`), else a package folder made here by the builds of tsup.config.ts (no declarations), in
 * the checkout's cache of the system's temporary folder: its dist/ beside a copy of package.json, whose "exports"
 * and "imports" (the Node-only parts' `#sign-in`, `#profile-file`) resolve as in the installed package. A fresh
 * clone's `npm test` checks the built code too.
 */
import { copyFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { builds } from '../../tsup.config.js';
import { freshCheckoutCache } from './checkoutCache.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

/** The folder of the built package (its package.json and dist/): the repository when dist/ is fresh, else one built here. */
export async function builtPackage(): Promise<string> {
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'tsup.config.ts')), newest(join(root, 'package.json')));
  const entries = ['index.js', 'mcp/index.cjs', 'funcs/index.js', 'testing/index.js', 'cli/oz.js', 'off-node/sign-in.js'].map((file) =>
    join(root, 'dist', file),
  );
  if (Math.min(...entries.map(newest)) > sources) return root;
  const folder = freshCheckoutCache('built-package', root);
  copyFileSync(join(root, 'package.json'), join(folder, 'package.json'));
  for (const options of builds) await build({ ...options, config: false, outDir: join(folder, 'dist'), sourcemap: false, silent: true });
  return folder;
}
