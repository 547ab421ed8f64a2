/**
 * The built `oz` and `oz-mock` bins, run as a user runs them (`node dist/cli/oz.js`, never through npx: see
 * toolchain trap 14). `dist/` is used when it is newer than every source (CI builds before `npm test`); else
 * the same two entries are bundled here with esbuild (tsup's bundler, same target and externals) into
 * the checkout's cache in the system's temporary folder, in dist's layout, so a fresh clone's `npm test` runs them too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freshCheckoutCache } from '../../support/checkoutCache.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

let built: Promise<string> | undefined;

/** The directory holding `cli/oz.js` and `testing/cli.js`. */
export function builtBins(): Promise<string> {
  built ??= (async () => {
    const sources = Math.max(newestSource(join(root, 'src')), mtime(join(root, 'openapi.json')));
    const dist = join(root, 'dist');
    if (mtime(join(dist, 'cli/oz.js')) > sources && mtime(join(dist, 'testing/cli.js')) > sources) return dist;
    const out = freshCheckoutCache('cli-test', root);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    await build({
      entryPoints: { 'cli/oz': join(root, 'src/cli/main.ts'), 'testing/cli': join(root, 'src/testing/cli.ts') },
      outdir: out,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: Object.keys(pkg.dependencies),
      logLevel: 'silent',
    });
    return out;
  })();
  return built;
}
