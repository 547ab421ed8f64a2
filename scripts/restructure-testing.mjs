#!/usr/bin/env node
// The mechanical part of issue 27 (the embedded server's house): moves the files of src/testing/ (and their tests)
// into folders by concept with `git mv`, then rewrites every relative import (and `new URL('..', import.meta.url)`
// of a moved file, and every root-relative 'src/testing/….ts' string) so it points at the file's new place.
//
// It can be run again at any time (after merging main, say): a file already at its new place is left there, an
// import that already resolves is kept, an import written against a file's old place (a merged change) is mapped.
// A file of src/testing/ that the table does not place is listed at the end: give it a row and run it again.
//
//   node scripts/restructure-testing.mjs          moves and rewrites
//   node scripts/restructure-testing.mjs --check  lists what it would move and the unplaced files, changes nothing
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

/** Each folder of src/testing/ and the files (old names, relative to src/testing/) it takes; `old:new` renames. */
const FOLDERS = {
  support: ['ids', 'isoTime', 'plainObject', 'indexedMap', 'orderedIndex', 'tokenize', 'requestUrl', 'cron', 'control/atomicFile', 'addressFence', 'linearPattern', 'jsonSubset'],
  time: ['clock', 'workTracker', 'stateLifetime'],
  contract: ['operations', 'schemaValidation', 'errors', 'documentContent', 'codeGeneration', 'exactNumbers', 'serverClosedError', 'schemaInterpreter'],
  wire: ['wire', 'render', 'yamlWire', 'sseStream', 'cors', 'connection', 'answer', 'bodyLimit', 'connectionBound', 'streamPace'],
  state: ['state', 'store', 'apiKeys', 'retention', 'demoSeed', 'catalog', 'itemViews', 'executionViews', 'toolLinks'],
  runs: ['runner', 'itemWalker', 'scheduler'],
  harness: ['faults', 'journal', 'requestScope', 'journalMatch'],
  pipeline: ['context:requestContext', 'dispatch', 'app:routing', 'routeCache', 'requestIdHeader'],
  // Stubs answer in a handler's place (the dispatcher calls them), over the request's context.
  'pipeline/stubs': ['stubs/stubs', 'stubs/stubAnswerCheck', 'unused'],
  // The steps every request goes through, a file each (their list is pipeline/pipeline.ts).
  'pipeline/steps': ['loopbackHost:hostCheck', 'auth:authenticate', 'rateLimit', 'requestBody:body', 'requestValidation:validate', 'idempotency:replay'],
  'handlers/shared': ['executionFlow', 'executionRecords', 'pagination', 'toolFence'],
  mounts: ['fetchMount', 'mswMount', 'httpMount', 'nodeRequest', 'streamGuard', 'dashboard'],
  fixtures: ['control/fixtures', 'control/fixtureFormat', 'control/behaviour', 'control/stateDocument', 'control/fixtureExpansion'],
  public: ['options', 'sessions/maxSessions'],
};

/** The tests of test/testing/, laid out as the folders they test. */
const TEST_FOLDERS = {
  contract: ['openapiDocument', 'operations', 'validator', 'inputSchemas', 'noCodeGeneration'],
  time: ['exactTime'],
  wire: ['wire', 'streams'],
  state: ['retentionFlags', 'scale'],
  runs: ['abort'],
  harness: ['faults'],
  pipeline: ['auth', 'planes', 'idempotency', 'requestValidation', 'contractSlips'],
  handlers: ['executions', 'items', 'mcp', 'models', 'tools', 'workflows', 'toolFence'],
  mounts: ['httpMount', 'msw', 'dashboard', 'unsupportedRuntime', 'carelessUse'],
};

/** The helpers the tests of test/testing/ share (old names, relative to test/testing/); `old:new` renames. */
const TEST_HELPERS = {
  support: ['support:serverCall', 'sseEvents'],
};

/** Files that stay where they are: the entry points, the composition root, the folders already by concept. */
const STAYS = /^src\/testing\/(index|cli|server|serverApi)\.ts$|^src\/testing\/(handlers|control|[a-z]+)\//;

/** old repo-relative path -> new repo-relative path */
const MOVES = new Map();
for (const [folder, names] of Object.entries(FOLDERS)) {
  for (const entry of names) {
    const [from, to = posix.basename(from)] = entry.split(':');
    MOVES.set(`src/testing/${from}.ts`, `src/testing/${folder}/${to}.ts`);
  }
}
for (const [folder, names] of Object.entries(TEST_FOLDERS)) {
  for (const name of names) MOVES.set(`test/testing/${name}.test.ts`, `test/testing/${folder}/${name}.test.ts`);
}
for (const [folder, names] of Object.entries(TEST_HELPERS)) {
  for (const entry of names) {
    const [from, to = from] = entry.split(':');
    MOVES.set(`test/testing/${from}.ts`, `test/testing/${folder}/${to}.ts`);
  }
}
/** Places an earlier version of this table gave a file (new repo-relative path -> the original path). */
const INTERIM = new Map(
  Object.entries({
    'pipeline/auth': 'auth',
    'pipeline/addressFence': 'addressFence',
    'pipeline/loopbackHost': 'loopbackHost',
    'pipeline/rateLimit': 'rateLimit',
    'pipeline/requestBody': 'requestBody',
    'pipeline/requestValidation': 'requestValidation',
    'pipeline/idempotency': 'idempotency',
  }).map(([interim, original]) => [`src/testing/${interim}.ts`, `src/testing/${original}.ts`]),
);
for (const [interim, original] of INTERIM) MOVES.set(interim, MOVES.get(original));
const REVERSE = new Map([...MOVES].filter(([from]) => !INTERIM.has(from)).map(([from, to]) => [to, from]));

const exists = (p) => existsSync(join(root, p));
const isFile = (p) => exists(p) && statSync(join(root, p)).isFile();

// 1. Moves.
/** new path -> the path it was moved from in this run */
const movedNow = new Map();
/** With --check: old path -> the new path it would be moved to (nothing moves). */
const wouldMove = new Map();
for (const [from, to] of MOVES) {
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

// 2. Imports.
const SCAN = ['src', 'test', 'bench', 'examples', 'scripts', 'tools', 'tsup.config.ts', 'vitest.config.ts', 'typedoc.json', 'package.json'];
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js|json)$/;
function* walk(p) {
  if (!exists(p)) return;
  if (statSync(join(root, p)).isFile()) {
    if (SOURCE.test(p)) yield p;
    return;
  }
  for (const name of readdirSync(join(root, p))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    yield* walk(posix.join(p, name));
  }
}

/** The file a specifier names from `dir` (repo-relative), at its new place, or null. */
function locate(dir, spec) {
  const base = posix.normalize(posix.join(dir, spec));
  const candidates = /\.js$/.test(base) ? [base.replace(/\.js$/, '.ts'), base] : /\.(json|mjs|cjs|ts)$/.test(base) ? [base] : [`${base}.ts`, `${base}/index.ts`];
  for (const c of candidates) {
    if (isFile(c)) return { file: wouldMove.get(c) ?? c, spec: base };
    if (MOVES.has(c) && isFile(MOVES.get(c))) return { file: MOVES.get(c), spec: base, moved: c };
  }
  return null;
}

/** The specifier for `target` from `dir`, keeping the written form's extension (`.js` for a `.ts` file). */
function specifier(dir, found, written) {
  let to = found.file;
  if (/\.js$/.test(written) && to.endsWith('.ts')) to = to.replace(/\.ts$/, '.js');
  else if (!/\.(js|json|mjs|cjs|ts)$/.test(written)) to = to.replace(/(\/index)?\.ts$/, '');
  let rel = posix.relative(dir, to);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

const IMPORT = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.mock\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
const META_URL = /new URL\((['"])(\.{1,2}(?:\/[^'"\n]*)?)\1,\s*import\.meta\.url\)/g;
const ROOTED = /(['"])(src\/testing\/[\w/]+\.ts)\1/g;
const unresolved = [];
let rewritten = 0;
for (const file of walk('.')) {
  if (!SCAN.some((s) => file === s || file.startsWith(`${s}/`))) continue;
  // A file moved in this run (or, with --check, one that would be) has its relative URLs re-based from its old
  // folder; a file already at its new place from an earlier run keeps them (they were re-based then), and its old
  // folder only serves to map an import written against it.
  const now = posix.dirname(wouldMove.get(file) ?? file);
  const old = posix.dirname(movedNow.get(file) ?? (wouldMove.has(file) ? file : (REVERSE.get(file) ?? file)));
  const wasMoved = movedNow.has(file) || wouldMove.has(file);
  const text = readFileSync(join(root, file), 'utf8');
  const next = text
    .replace(IMPORT, (all, lead, quote, spec) => {
      const found = wasMoved ? (locate(old, spec) ?? locate(now, spec)) : (locate(now, spec) ?? locate(old, spec));
      if (!found) {
        // Only a moved file's imports are this run's to re-base; elsewhere an unresolved "import" is text in a
        // string (a planted file of the layering test, a template), which tsc and the tests check anyway.
        if (wasMoved) unresolved.push(`${file}: ${spec}`);
        return all;
      }
      return `${lead}${quote}${specifier(now, found, spec)}${quote}`;
    })
    .replace(META_URL, (all, quote, spec) => {
      if (!wasMoved) return all;
      let rel = posix.relative(now, posix.normalize(posix.join(old, spec))) || '.';
      if (!rel.startsWith('.')) rel = `./${rel}`;
      if (spec.endsWith('/') && !rel.endsWith('/')) rel += '/';
      return `new URL(${quote}${rel}${quote}, import.meta.url)`;
    })
    .replace(ROOTED, (all, quote, p) => (MOVES.has(p) && isFile(MOVES.get(p)) ? `${quote}${MOVES.get(p)}${quote}` : all));
  if (next !== text) {
    rewritten++;
    if (!check) writeFileSync(join(root, file), next);
  }
}

const unplaced = [...walk('src/testing')].filter((f) => f.endsWith('.ts') && !STAYS.test(f) && !MOVES.has(f));
const unplacedFlat = [...walk('src/testing')].filter((f) => /^src\/testing\/[^/]+\.ts$/.test(f) && !STAYS.test(f) && !MOVES.has(f));
console.log(`${check ? 'would rewrite' : 'rewrote'} ${rewritten} files`);
for (const u of unresolved) console.log(`unresolved import: ${u}`);
for (const u of new Set([...unplaced, ...unplacedFlat])) console.log(`not placed (add a row to FOLDERS): ${u}`);


