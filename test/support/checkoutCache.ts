/**
 * A cache folder of this checkout, in the system's temporary folder: keyed by the checkout's path, so two
 * checkouts (worktrees, or clones sharing one `node_modules`) never write the same folder, and nothing of a test
 * run lands in `node_modules`. A folder whose built code imports the package's dependencies gets a
 * `node_modules` link to the checkout's, as Node resolves them from the file's own folder upwards.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder. */
export const checkoutRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The path of the cache folder `name` of this checkout (not created). */
export function checkoutCachePath(name: string, root: string = checkoutRoot): string {
  const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
  return join(tmpdir(), `oz-sdk-${key}`, name);
}

/** The cache folder `name`, emptied and created afresh, with a `node_modules` link to the checkout's. */
export function freshCheckoutCache(name: string, root: string = checkoutRoot): string {
  const folder = checkoutCachePath(name, root);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
  return folder;
}
