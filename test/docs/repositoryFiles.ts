/**
 * The files of the repository as a reader of its docs sees them: every file but dependencies, the `.git` folder and
 * what a build or a tool writes (the folders .gitignore lists), as paths relative to the root with `/` separators.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The folders .gitignore names (`dist/`, `docs/api/`, ...): build output, never a source a page may name. */
export const OUTPUT_FOLDERS: readonly string[] = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.endsWith('/') && !line.startsWith('#'))
  .map((line) => line.replace(/^\//, ''));

const SKIPPED = new Set(['node_modules', '.git']);

export const isOutput = (path: string): boolean => OUTPUT_FOLDERS.some((folder) => `${path}/`.startsWith(folder));

function walk(folder: string, out: string[]): string[] {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (SKIPPED.has(entry.name) || isOutput(path)) continue;
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** Every file of the repository (see above), sorted. */
export const REPOSITORY_FILES: readonly string[] = walk('', []).sort();

/** Every folder that holds a file of REPOSITORY_FILES. */
export const REPOSITORY_FOLDERS: ReadonlySet<string> = new Set(
  REPOSITORY_FILES.flatMap((path) =>
    path
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
