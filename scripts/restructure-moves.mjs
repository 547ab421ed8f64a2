// The mechanism of the restructure scripts (restructure-testing.mjs, restructure-core.mjs): moves files with
// `git mv`, then rewrites every relative import (and `new URL('..', import.meta.url)` of a moved file, and the
// repository-relative paths a script names) so that it points at the file's new place. Each script holds only its
// table of moves and what is particular to its folder.
//
// It can be run again at any time (after merging main, say): a file already at its new place is left there, an
// import that already resolves is kept, an import written against a file's old place (a merged change) is mapped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** What the scripts scan for imports and paths to rewrite. */
const SCAN = ['src', 'test', 'bench', 'examples', 'scripts', 'tools', 'tsup.config.ts', 'vitest.config.ts', 'typedoc.json', 'package.json'];
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js|json)$/;

const exists = (p) => existsSync(join(root, p));
/** Whether a repository-relative path is a file. */
export const isFile = (p) => exists(p) && statSync(join(root, p)).isFile();

/** The source files under a repository-relative path (a file or a folder), repository-relative. */
export function* walk(p) {
  if (!exists(p)) return;
  if (statSync(join(root, p)).isFile()) {
    if (SOURCE.test(p)) yield p;
    return;
  }
  for (const name of readdirSync(join(root, p)).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    yield* walk(posix.join(p, name));
  }
}

const IMPORT = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.mock\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
// Quoted or a template (`../../src/${name}`: the interpolation stays where it is, the path before it is re-based).
const META_URL = /new URL\((['"`])(\.{1,2}(?:\/[^'"`\n]*)?)\1,\s*import\.meta\.url\)/g;

/**
 * Moves and rewrites.
 * - `moves`: old repository-relative path -> new one.
 * - `aliases`: further old paths (an earlier table's places) -> the new one; read, never a move's origin.
 * - `check`: list what would move and count the files that would change; change nothing.
 * - `rewrite(file, text, newPlace)`: what the script rewrites besides relative imports (paths it names as strings),
 *   given `newPlace(path)`: a path's place after the moves, or null when it does not move.
 * Answers `{ rewritten, unresolved }`: the number of files changed (or that would be), and the imports of moved
 * files that resolve to nothing.
 */
export function applyMoves({ moves, aliases = new Map(), check, rewrite = (file, text) => text }) {
  const all = new Map([...moves, ...aliases]);
  /** new path -> its original path, for a file at its new place */
  const reverse = new Map([...moves].map(([from, to]) => [to, from]));

  // 1. Moves.
  /** new path -> the path it was moved from in this run */
  const movedNow = new Map();
  /** With `check`: old path -> the new path it would be moved to (nothing moves). */
  const wouldMove = new Map();
  for (const [from, to] of all) {
    if (!isFile(from) || exists(to)) continue;
    console.log(`move ${from} -> ${to}`);
    if (check) {
      wouldMove.set(from, to);
      continue;
    }
    mkdirSync(dirname(join(root, to)), { recursive: true });
    execFileSync('git', ['mv', from, to], { cwd: root });
    movedNow.set(to, from);
  }

  /** A path's place once the moves are made, or null when it does not move. */
  const newPlace = (p) => wouldMove.get(p) ?? (all.has(p) && isFile(all.get(p)) ? all.get(p) : null);

  /** The file a specifier names from `dir` (repo-relative), at its new place, or null. */
  function locate(dir, spec) {
    const base = posix.normalize(posix.join(dir, spec));
    const candidates = /\.js$/.test(base) ? [base.replace(/\.js$/, '.ts'), base] : /\.(json|mjs|cjs|ts)$/.test(base) ? [base] : [`${base}.ts`, `${base}/index.ts`];
    for (const c of candidates) {
      if (isFile(c)) return { file: wouldMove.get(c) ?? c };
      if (all.has(c) && isFile(all.get(c))) return { file: all.get(c) };
    }
    return null;
  }

  /** The specifier for `found` from `dir`, keeping the written form's extension (`.js` for a `.ts` file). */
  function specifier(dir, found, written) {
    let to = found.file;
    if (/\.js$/.test(written) && to.endsWith('.ts')) to = to.replace(/\.ts$/, '.js');
    else if (!/\.(js|json|mjs|cjs|ts)$/.test(written)) to = to.replace(/(\/index)?\.ts$/, '');
    let rel = posix.relative(dir, to);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return rel;
  }

  // 2. Imports and paths.
  const unresolved = [];
  let rewritten = 0;
  for (const file of walk('.')) {
    if (!SCAN.some((s) => file === s || file.startsWith(`${s}/`))) continue;
    // A file moved in this run (or, with `check`, one that would be) has its relative URLs re-based from its old
    // folder; a file already at its new place from an earlier run keeps them (they were re-based then), and its old
    // folder only serves to map an import written against it.
    const now = posix.dirname(wouldMove.get(file) ?? file);
    const old = posix.dirname(movedNow.get(file) ?? (wouldMove.has(file) ? file : (reverse.get(file) ?? file)));
    const wasMoved = movedNow.has(file) || wouldMove.has(file);
    const text = readFileSync(join(root, file), 'utf8');
    const imported = text
      .replace(IMPORT, (whole, lead, quote, spec) => {
        const found = wasMoved ? (locate(old, spec) ?? locate(now, spec)) : (locate(now, spec) ?? locate(old, spec));
        if (!found) {
          // Only a moved file's imports are this run's to re-base; elsewhere an unresolved "import" is text in a
          // string (a planted file of the layering test, a template), which tsc and the tests check anyway.
          if (wasMoved) unresolved.push(`${file}: ${spec}`);
          return whole;
        }
        return `${lead}${quote}${specifier(now, found, spec)}${quote}`;
      })
      .replace(META_URL, (whole, quote, spec) => {
        if (!wasMoved) return whole;
        let rel = posix.relative(now, posix.normalize(posix.join(old, spec))) || '.';
        if (!rel.startsWith('.')) rel = `./${rel}`;
        if (spec.endsWith('/') && !rel.endsWith('/')) rel += '/';
        return `new URL(${quote}${rel}${quote}, import.meta.url)`;
      });
    const next = rewrite(file, imported, newPlace);
    if (next !== text) {
      rewritten++;
      if (!check) writeFileSync(join(root, file), next);
    }
  }
  return { rewritten, unresolved };
}
