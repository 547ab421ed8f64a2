#!/usr/bin/env node
// The mechanical part of issue 27 (the embedded server's house): moves the files of src/testing/ (and their tests)
// into folders by concept with `git mv`, then rewrites every relative import (and `new URL('..', import.meta.url)`
// of a moved file, and every root-relative 'src/testing/….ts' string) so it points at the file's new place (the
// mechanism: restructure-moves.mjs).
//
// It can be run again at any time (after merging main, say): a file already at its new place is left there, an
// import that already resolves is kept, an import written against a file's old place (a merged change) is mapped.
// A file of src/testing/ that the table does not place is listed at the end: give it a row and run it again.
//
//   node scripts/restructure-testing.mjs          moves and rewrites
//   node scripts/restructure-testing.mjs --check  lists what it would move and the unplaced files, changes nothing
import { posix } from 'node:path';
import { applyMoves, walk } from './restructure-moves.mjs';

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
/** The interim places, each mapped to where its original now goes. */
const ALIASES = new Map([...INTERIM].map(([interim, original]) => [interim, MOVES.get(original)]));

const ROOTED = /(['"])(src\/testing\/[\w/]+\.ts)\1/g;
const { rewritten, unresolved } = applyMoves({
  moves: MOVES,
  aliases: ALIASES,
  check,
  // Root-relative paths of src/testing/ in strings (a spawned `src/testing/cli.ts`).
  rewrite: (file, text, newPlace) => text.replace(ROOTED, (whole, quote, p) => (newPlace(p) === null ? whole : `${quote}${newPlace(p)}${quote}`)),
});

const unplaced = [...walk('src/testing')].filter((f) => f.endsWith('.ts') && !STAYS.test(f) && !MOVES.has(f));
const unplacedFlat = [...walk('src/testing')].filter((f) => /^src\/testing\/[^/]+\.ts$/.test(f) && !STAYS.test(f) && !MOVES.has(f));
console.log(`${check ? 'would rewrite' : 'rewrote'} ${rewritten} files`);
for (const u of unresolved) console.log(`unresolved import: ${u}`);
for (const u of new Set([...unplaced, ...unplacedFlat])) console.log(`not placed (add a row to FOLDERS): ${u}`);


