#!/usr/bin/env node
// Issue 27's "src/core/ grouped lightly where it helps": moves the core's files about streams, executions, errors
// and telemetry into a folder each (the rest stays at the top of src/core/), with `git mv`, and rewrites what names
// them (the mechanism: restructure-moves.mjs): every relative import in src/, test/, bench/, scripts/, examples/,
// the import paths the code generator writes into src/generated/ (scripts/codegen/), the `src/core/….ts` paths
// scripts and comments name, and the `core/….ts` paths of ARCHITECTURE.md, README.md and RELIABILITY.md. A test of
// a moved file follows it (test/core/<name>.test.ts -> test/core/<folder>/<name>.test.ts). It adds the folders'
// dependency-cruiser rule and its planted wrong-way import in the layering test. Then run `npm run generate`
// (nothing should change) and the checks. docs-pending/core-folders.md has the ARCHITECTURE.md text to apply.
//
// It refuses (exit 1, changing nothing) while src/core/ holds a file the table does not place: give it a row.
// It can be run again (after merging main): what is in place stays, an import of an old place is mapped.
//
//   node scripts/restructure-core.mjs          moves and rewrites
//   node scripts/restructure-core.mjs --check  lists what it would move and how many files it would change
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyMoves, isFile, root, walk } from './restructure-moves.mjs';

const check = process.argv.includes('--check');

/** Each folder of src/core/ and the files (names in src/core/) it takes. */
const FOLDERS = {
  // A stream of server-sent events: reading it, its protocol, its text, and how it ends early.
  streams: ['stream', 'sseReader', 'sseParser', 'streamProtocol', 'streamBounds', 'tokenData', 'lastEventData', 'textBuffer', 'streamErrors'],
  // A run read until it ends: the poller, recovering a lost answer, the async pointer, the wait's timeout.
  executions: ['executionPoller', 'pollLoop', 'pollTypes', 'executionRecovery', 'asyncPointer', 'waitTimeoutError'],
  // The typed errors and how an error answer is read into one.
  errors: ['errors', 'apiErrors', 'legacyKeyError', 'errorBody', 'errorLines', 'errorShape', 'middlewareError', 'responseValidationError'],
  // Spans, their types, and the logger.
  telemetry: ['tracing', 'callTracing', 'callSpan', 'spanTypes', 'logger', 'logLevel', 'redaction', 'debugLines', 'registeredTracing'],
};

/** The folder the others may import besides the top of src/core/ (every folder's errors are its typed errors). */
const SHARED_FOLDER = 'errors';

/** The files that stay at the top of src/core/: the transport and what it is made of. */
const TOP = [
  'abortError', 'abortableSleep', 'answerChecker', 'answerFeatures', 'answerReaders', 'answerTypes', 'answerValidation', 'apiPromise', 'attemptError', 'attemptSignal', 'auth', 'baseURL', 'boundBody', 'call', 'callExtras', 'callSettings', 'callResult', 'coreClient', 'credentials', 'deprecation', 'deprecationWarnings', 'errorHints', 'finalError', 'format', 'headerValue',
  'inProcessAddress', 'jsonBody', 'keyProvider', 'loadedFeatures', 'lostAnswerCall', 'lostAnswerRecovery', 'middleware', 'middlewareAttempt', 'middlewareChain', 'operation', 'ownSettings', 'pagination', 'pathSegment', 'providerKey', 'rawExchange', 'redirect', 'requestOptions',
  'responseBody', 'responseValidation', 'retryOptionTypes', 'retryOptions', 'retryDefaults', 'retryLoop', 'retryOptionsCheck', 'retryPolicy', 'runtime', 'traceId',
  'transport', 'tryParseJson', 'usageMessages', 'usageProblem', 'version', 'wire', 'wireMediaTypes', 'wireOfContentType', 'yaml', 'yamlBody',
];

/** old repo-relative path -> new repo-relative path */
const MOVES = new Map();
for (const [folder, names] of Object.entries(FOLDERS)) {
  for (const name of names) {
    MOVES.set(`src/core/${name}.ts`, `src/core/${folder}/${name}.ts`);
    // A moved file's test follows it.
    if (isFile(`test/core/${name}.test.ts`) || isFile(`test/core/${folder}/${name}.test.ts`)) MOVES.set(`test/core/${name}.test.ts`, `test/core/${folder}/${name}.test.ts`);
  }
}

// 0. Every file of src/core/ has a place, or nothing happens.
const placed = new Set([...TOP.map((name) => `src/core/${name}.ts`), ...MOVES.keys(), ...MOVES.values()]);
const unplaced = [...walk('src/core')].filter((file) => !placed.has(file));
const twice = TOP.filter((name) => MOVES.has(`src/core/${name}.ts`));
if (unplaced.length > 0 || twice.length > 0) {
  for (const file of unplaced) console.error(`not placed (add it to FOLDERS or TOP): ${file}`);
  for (const name of twice) console.error(`placed twice (in TOP and in FOLDERS): ${name}`);
  console.error('restructure-core: refused, nothing changed');
  process.exit(1);
}

/** The moved file a `core/<name>` path names, or null. */
const movedFolder = (name) => Object.keys(FOLDERS).find((folder) => FOLDERS[folder].includes(name)) ?? null;

// `src/core/<name>.ts` (and `core/<name>.ts` after a word boundary, not `test/core/…`) in code, comments and docs.
const CORE_PATH = /(?<![\w./-])((?:src\/)?core\/)(\w+)\.ts\b/g;
// The import paths the code generator writes into src/generated/ ('../core/x.js', '../../core/x.js').
const GENERATED_IMPORT = /((?:\.\.\/)+core\/)(\w+)\.js\b/g;
const withFolder = (whole, lead, name, ext) => (movedFolder(name) === null ? whole : `${lead}${movedFolder(name)}/${name}.${ext}`);

const { rewritten, unresolved } = applyMoves({
  moves: MOVES,
  check,
  rewrite: (file, text) => {
    let next = text.replace(CORE_PATH, (whole, lead, name) => withFolder(whole, lead, name, 'ts'));
    if (file.startsWith('scripts/') && !file.startsWith('scripts/restructure-')) next = next.replace(GENERATED_IMPORT, (whole, lead, name) => withFolder(whole, lead, name, 'js'));
    return next;
  },
});

/** Rewrites one repository file with `change`, or (with --check) says whether it would; answers whether it changes. */
function edit(file, change) {
  const text = readFileSync(join(root, file), 'utf8');
  const next = change(text);
  if (next !== text && !check) writeFileSync(join(root, file), next);
  return next !== text;
}

// The docs' paths.
const docs = ['ARCHITECTURE.md', 'README.md', 'RELIABILITY.md'].filter((doc) => edit(doc, (text) => text.replace(CORE_PATH, (whole, lead, name) => withFolder(whole, lead, name, 'ts'))));

// The folders' dependency-cruiser rule, derived from the table, and its planted wrong-way import.
const RULE = 'core-folders-beside-each-other';
const others = Object.keys(FOLDERS).filter((folder) => folder !== SHARED_FOLDER);
const ruleText = `    forbid(
      '${RULE}',
      "src/core's folders stand beside each other: ${others.map((f) => `${f}/`).join(', ')} import ${SHARED_FOLDER}/ and the top of src/core/, never another folder; ${SHARED_FOLDER}/ imports only the top.",
      { path: '^src/core/(${Object.keys(FOLDERS).join('|')})/' },
      { path: '^src/core/(${Object.keys(FOLDERS).join('|')})/', pathNot: '^src/core/($1|${SHARED_FOLDER})/' },
    ),
`;
const ANCHOR = "    forbid(\n      'generated-imports-only-core',";
const missing = [];
const configChanges = edit('.dependency-cruiser.cjs', (text) => {
  if (text.includes(`'${RULE}'`)) return text;
  if (!text.includes(ANCHOR)) return missing.push(`.dependency-cruiser.cjs: add before 'generated-imports-only-core':\n${ruleText}`), text;
  return text.replace(ANCHOR, `${ruleText}${ANCHOR}`);
});
const [from, to] = [`src/core/${others[0]}/wrongFolder.ts`, `src/core/${others[1]}/${FOLDERS[others[1]][0]}.ts`];
const plant = `      '${from}': "import '../${others[1]}/${FOLDERS[others[1]][0]}.js';",\n`;
const expectation = `      '${RULE}: ${from} -> ${to}',\n`;
const PLANT_ANCHOR = "      'src/generated/wrongWay.ts':";
const EXPECTED_ANCHOR = "      'generated-imports-only-core:";
const testChanges = edit('test/architecture/layering.test.ts', (text) => {
  if (text.includes(`'${RULE}:`)) return text;
  if (!text.includes(PLANT_ANCHOR) || !text.includes(EXPECTED_ANCHOR)) return missing.push(`test/architecture/layering.test.ts: plant\n${plant}and expect\n${expectation}`), text;
  return text.replace(PLANT_ANCHOR, `${plant}${PLANT_ANCHOR}`).replace(EXPECTED_ANCHOR, `${expectation}${EXPECTED_ANCHOR}`);
});

const changed = rewritten + docs.length + (configChanges ? 1 : 0) + (testChanges ? 1 : 0);
console.log(`${check ? 'would rewrite' : 'rewrote'} ${changed} files${docs.length ? ` (docs: ${docs.join(', ')})` : ''}${configChanges ? `, the ${RULE} rule and its planted import` : ''}`);
for (const u of unresolved) console.log(`unresolved import: ${u}`);
for (const m of missing) console.log(`by hand (its anchor moved): ${m}`);
if (unresolved.length > 0 || missing.length > 0) process.exit(1);
if (!check && changed > 0) console.log('next: npm run generate (no change expected), npx tsc --noEmit -p tsconfig.json, npm run lint:layers, npm test');
