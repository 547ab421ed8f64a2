#!/usr/bin/env node
/**
 * Fills the TypeScript blocks of README.md and of every page of docs/ (docs/*.md) from marked regions of files
 * that run (the examples), so that every code block a reader copies is code the test suite executes.
 *
 * In a page, a marker line right before a fenced block names the source:
 *
 *   <!-- snippet: examples/quickstart.ts#import,quickstart -->
 *   ```ts
 *   (filled in by this script)
 *   ```
 *
 * `file#a,b` joins regions `a` and `b` (with a blank line between them); `file` alone takes the whole file. In
 * the source, a region is the lines between `// #region a` and its `// #endregion` (`# #region a` and
 * `# #endregion` in a shell script, for a ```sh block); regions may nest, and marker lines inside a region are
 * left out. The region's common indentation is removed.
 *
 *   node scripts/readme-snippets.mjs          rewrites README.md and docs/*.md
 *   node scripts/readme-snippets.mjs --check  fails (exit 1) when a page differs from its sources, names a
 *                                             missing file or region, or has a TypeScript block without a marker
 *   --readme <path>                           only this Markdown file (paths in markers stay relative to the
 *                                             repository's root)
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = /^<!-- snippet: (\S+?)(?:#(\S+))? -->$/;
const FENCE_OPEN = /^```(\w*)\s*$/;
const TS_LANGS = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'mjs', 'cjs']);
const REGION_START = /^\s*(?:\/\/|#) #region (\S+)\s*$/;
const REGION_END = /^\s*(?:\/\/|#) #endregion\b/;

class SnippetError extends Error {}

/** The lines of region `name` in `text`, marker lines of nested regions left out. */
function regionLines(text, name, file) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => REGION_START.exec(line)?.[1] === name);
  if (start === -1) throw new SnippetError(`${file}: no region "${name}" (// #region ${name})`);
  const body = [];
  let depth = 1;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (REGION_START.test(line)) {
      depth++;
      continue;
    }
    if (REGION_END.test(line)) {
      if (--depth === 0) return body;
      continue;
    }
    body.push(line);
  }
  throw new SnippetError(`${file}: region "${name}" has no // #endregion`);
}

function dedent(lines) {
  while (lines.length && lines[0].trim() === '') lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut).trimEnd());
}

/** The text a marker names. */
function snippet(file, regions) {
  const path = join(ROOT, file);
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new SnippetError(`no file ${file}`);
  }
  if (!regions) return dedent(text.split('\n').filter((line) => !REGION_START.test(line) && !REGION_END.test(line))).join('\n');
  return regions
    .split(',')
    .map((name) => dedent(regionLines(text, name, file)).join('\n'))
    .join('\n\n');
}

/** README with every marked block filled in, and the problems found on the way. */
export function render(readme, name = 'README.md') {
  const lines = readme.split('\n');
  const out = [];
  const problems = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = MARKER.exec(line);
    const fence = FENCE_OPEN.exec(line);
    if (marker) {
      out.push(line);
      const open = FENCE_OPEN.exec(lines[i + 1] ?? '');
      if (!open) {
        problems.push(`${name}:${i + 1}: a snippet marker must be followed by a fenced code block`);
        continue;
      }
      const close = lines.findIndex((l, j) => j > i + 1 && /^```\s*$/.test(l));
      if (close === -1) {
        problems.push(`${name}:${i + 2}: unclosed code block`);
        continue;
      }
      try {
        out.push(lines[i + 1], snippet(marker[1], marker[2]), lines[close]);
      } catch (error) {
        if (!(error instanceof SnippetError)) throw error;
        problems.push(`${name}:${i + 1}: ${error.message}`);
        out.push(...lines.slice(i + 1, close + 1));
      }
      i = close;
    } else if (fence && fence[1] !== '') {
      // A fenced block without a marker: allowed for shell and other non-code blocks, never for TypeScript.
      if (TS_LANGS.has(fence[1].toLowerCase())) {
        problems.push(`${name}:${i + 1}: a ${fence[1]} block without a <!-- snippet: file#region --> marker`);
      }
      const close = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      const end = close === -1 ? lines.length - 1 : close;
      out.push(...lines.slice(i, end + 1));
      i = end;
    } else {
      out.push(line);
    }
  }
  return { text: out.join('\n'), problems };
}

/** The pages this script keeps: README.md and docs/*.md, or the one `--readme` names. */
function pagesToKeep() {
  const at = process.argv.indexOf('--readme');
  if (at !== -1) return [resolve(process.argv[at + 1] ?? '')];
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return [join(ROOT, 'README.md'), ...docs.map((name) => join(ROOT, 'docs', name))];
}

/** Checks or rewrites one page; true when it is (now) what its sources say. */
function keep(path, check) {
  const name = relative(ROOT, path) || 'README.md';
  const page = readFileSync(path, 'utf8');
  const { text, problems } = render(page, name);
  if (problems.length) {
    process.stderr.write(`readme-snippets: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    return false;
  }
  if (text === page) return true;
  if (check) {
    const before = page.split('\n');
    const after = text.split('\n');
    const first = after.findIndex((line, i) => line !== before[i]);
    process.stderr.write(
      `readme-snippets: ${name} differs from its sources from line ${first + 1}:\n` +
        `  now:    ${JSON.stringify(before[first] ?? '')}\n  source: ${JSON.stringify(after[first] ?? '')}\n` +
        `Run \`npm run docs:readme\` to update it.\n`,
    );
    return false;
  }
  writeFileSync(path, text);
  process.stdout.write(`readme-snippets: ${name} updated.\n`);
  return true;
}

function main() {
  const check = process.argv.includes('--check');
  const pages = pagesToKeep();
  // Every page is checked (or written) before the exit, so one run reports every stale page.
  const failed = pages.filter((path) => !keep(path, check));
  if (failed.length) process.exit(1);
  process.stdout.write(
    `readme-snippets: ${pages.length === 1 ? relative(ROOT, pages[0]) : `${pages.length} pages`} match${pages.length === 1 ? 'es' : ''} their sources.\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
