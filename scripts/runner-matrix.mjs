#!/usr/bin/env node
// `npm run test:runners`: the client's features (test/runners/features.mjs, written once) under every test runner
// a user may run them in, from the packed tarball as a user installs it.
//
// `npm pack` once; the tarball is installed in an empty temporary folder beside the dev tools a user adds (the
// versions this repository pins), and the features run there under: jest CommonJS through ts-jest, @swc/jest and
// babel-jest; jest ESM (node --experimental-vm-modules); vitest in the node, jsdom and happy-dom environments;
// node:test; `bun test` and `deno test` (the binaries pinned in test/ecosystem/runtimes); plain CommonJS and ESM
// programs. Each runner starts without OZ_API_KEY, with OZ_PROFILE=matrix and an OZ_CONFIG_DIR of its own (the
// profile feature writes the profile file there). Every feature appends its outcome to a report file; the table
// is feature x runner. Exits 1 on any failure, and ends with `N passed, N failed`.
//
//   npm run test:runners [-- --tarball oz-sdk-1.0.0.tgz] [-- --only "jest ts-jest,bun test"]
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { FEATURES } from '../test/runners/features.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({ options: { tarball: { type: 'string' }, only: { type: 'string' } } });
const suite = join(root, 'test/runners');
const runtimes = join(root, 'test/ecosystem/runtimes');
const RUNNER_TIMEOUT_MS = 240_000;
const FEATURE_TIMEOUT_MS = 60_000;
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'oz-runners-'));
const app = join(work, 'app');
const run = (cmd, argv, cwd) => execFileSync(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const log = (line) => console.log(line);

/** Runs a command with a time limit; answers its exit code (or signal) and output. */
function runFor(cmd, argv, { cwd, env, timeoutMs }) {
  return new Promise((done) => {
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: -1, output: String(error), timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? signal, output, timedOut });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
log(`== runner matrix in ${work}`);
let tarball = args.tarball && resolve(args.tarball);
if (!tarball) {
  if (!existsSync(join(root, 'dist/index.cjs'))) run('npm', ['run', 'build'], root);
  tarball = join(work, run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], root).trim().split('\n').pop());
}
log(`  tarball ${tarball}`);

// The dev tools a user's project has, at the versions this repository pins.
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
const tools = [
  'jest',
  '@jest/globals',
  'ts-jest',
  '@swc/core',
  '@swc/jest',
  'babel-jest',
  '@babel/core',
  '@babel/preset-env',
  '@babel/preset-typescript',
  'vitest',
  'jsdom',
  'happy-dom',
  'msw',
  'typescript',
  '@types/node',
];
mkdirSync(app);
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'oz-runner-matrix', private: true, version: '0.0.0' }));
log('  npm install (the tarball and the dev tools)');
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...tools.map((name) => `${name}@${pinned[name]}`)], app);
if (!existsSync(join(runtimes, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], runtimes);

copyFileSync(join(suite, 'features.mjs'), join(app, 'features.mjs'));
// The same features for CommonJS's require (jest CommonJS, the CommonJS program): esbuild only changes the module form.
run(
  join(root, 'node_modules/.bin/esbuild'),
  ['features.mjs', '--format=cjs', '--platform=node', '--target=node20', '--outfile=features.cjs', '--log-level=warning'],
  app,
);
const entries = {
  'jest.entry.ts': 'jest.test.ts',
  'jest-esm.entry.mjs': 'jest-esm.test.mjs',
  'vitest.entry.mjs': 'vitest.test.mjs',
  'node-test.entry.mjs': 'node-test.test.mjs',
  'bun.entry.mjs': 'bun.test.mjs',
  'deno.entry.mjs': 'deno.test.mjs',
  'program.entry.mjs': 'program.mjs',
  'program.entry.cjs': 'program.cjs',
};
for (const [from, to] of Object.entries(entries)) copyFileSync(join(suite, 'entries', from), join(app, to));

// jest's configurations, as msw's and each transform's documentation give them. msw 2's CommonJS build requires
// packages that ship only ESM: jest CommonJS transforms them like the tests (jest's advice for ESM in node_modules).
const mswEsmOnly = ['/node_modules/(?!(rettime|@open-draft|until-async)/)'];
const jestCjs = (transform) => ({
  testEnvironment: 'node',
  testMatch: ['<rootDir>/jest.test.ts'],
  transform: { '^.+\\.(ts|m?js)$': transform },
  transformIgnorePatterns: mswEsmOnly,
});
const configs = {
  'jest.ts-jest.config.json': jestCjs([
    'ts-jest',
    { tsconfig: { module: 'commonjs', target: 'es2022', esModuleInterop: true, isolatedModules: true, allowJs: true } },
  ]),
  'jest.swc.config.json': jestCjs(['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }]),
  'jest.babel.config.json': jestCjs('babel-jest'),
  'jest.esm.config.json': { testEnvironment: 'node', testMatch: ['<rootDir>/jest-esm.test.mjs'], transform: {} },
  'babel.config.json': { presets: [['@babel/preset-env', { targets: { node: 'current' } }], '@babel/preset-typescript'] },
};
for (const [file, config] of Object.entries(configs)) writeFileSync(join(app, file), JSON.stringify(config, null, 2));

const bin = (name) => join(app, 'node_modules/.bin', name);
const bun = join(runtimes, 'node_modules/@oven/bun-linux-x64/bin/bun');
const deno = join(runtimes, 'node_modules/@deno/linux-x64-glibc/deno');
const jest = (config, node = []) => [
  process.execPath,
  [...node, join(app, 'node_modules/jest/bin/jest.js'), '--ci', '--config', config, `--testTimeout=${FEATURE_TIMEOUT_MS}`],
];
const vitest = (environment) => [
  bin('vitest'),
  ['run', 'vitest.test.mjs', '--environment', environment, `--testTimeout=${FEATURE_TIMEOUT_MS}`, `--hookTimeout=${FEATURE_TIMEOUT_MS}`],
];
const RUNNERS = [
  ['jest ts-jest', ...jest('jest.ts-jest.config.json')],
  ['jest swc', ...jest('jest.swc.config.json')],
  ['jest babel', ...jest('jest.babel.config.json')],
  ['jest ESM', ...jest('jest.esm.config.json', ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'])],
  ['vitest node', ...vitest('node')],
  ['vitest jsdom', ...vitest('jsdom')],
  ['vitest happy-dom', ...vitest('happy-dom')],
  ['node:test', process.execPath, ['--test', `--test-timeout=${FEATURE_TIMEOUT_MS}`, 'node-test.test.mjs']],
  ['bun test', bun, ['test', './bun.test.mjs', '--timeout', String(FEATURE_TIMEOUT_MS)]],
  ['deno test', deno, ['test', '-A', 'deno.test.mjs']],
  ['node CJS', process.execPath, ['program.cjs']],
  ['node ESM', process.execPath, ['program.mjs']],
];
const only = args.only?.split(',').map((name) => name.trim());
const chosen = RUNNERS.filter(([name]) => !only || only.includes(name));
if (chosen.length === 0) throw new Error(`--only named no runner; the runners: ${RUNNERS.map(([name]) => name).join(', ')}`);

/** Each runner's outcome per feature, and what went wrong beside the features. */
const results = [];
for (const [name, cmd, argv] of chosen) {
  const slug = name.replace(/[^a-z0-9]+/gi, '-');
  const report = join(work, `${slug}.jsonl`);
  const env = { ...process.env, OZ_MATRIX_REPORT: report, OZ_CONFIG_DIR: join(work, `config-${slug}`), OZ_PROFILE: 'matrix', NO_COLOR: '1', CI: '1' };
  for (const variable of ['OZ_API_KEY', 'OZ_BASE_URL', 'OZ_MCP_URL', 'OZ_LOG', 'NODE_OPTIONS']) delete env[variable];
  const begun = Date.now();
  const outcome = await runFor(cmd, argv, { cwd: app, env, timeoutMs: RUNNER_TIMEOUT_MS });
  const seconds = ((Date.now() - begun) / 1000).toFixed(1);
  const lines = existsSync(report)
    ? readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const cells = Object.fromEntries(FEATURES.map(({ name: feature }) => [feature, lines.find((line) => line.feature === feature)?.outcome ?? 'not run']));
  const passed = Object.values(cells).every((cell) => cell === 'ok');
  const problem = outcome.timedOut ? `timed out after ${RUNNER_TIMEOUT_MS / 1000} s` : outcome.code !== 0 ? `exit ${outcome.code}` : undefined;
  // A runner that failed beside its features (a load error, a leak it reports, a hang after the tests) fails too.
  results.push({ name, cells, problem, output: outcome.output, seconds });
  log(`  ${name}: ${passed && !problem ? 'ok' : 'FAILED'} in ${seconds} s${problem ? ` (${problem})` : ''}`);
}

const short = (cell) => (cell === 'ok' ? 'ok' : cell === 'not run' ? '-' : 'FAIL');
log(`\n| feature | ${results.map((r) => r.name).join(' | ')} |`);
log(`| --- | ${results.map(() => '---').join(' | ')} |`);
for (const { name: feature } of FEATURES) log(`| ${feature} | ${results.map((r) => short(r.cells[feature])).join(' | ')} |`);
log(`| runner exit | ${results.map((r) => (r.problem ? 'FAIL' : 'ok')).join(' | ')} |`);

let passed = 0;
let failed = 0;
const failures = [];
for (const result of results) {
  // Features that failed the same way are listed on one line.
  const byOutcome = new Map();
  for (const [feature, cell] of Object.entries(result.cells)) {
    if (cell === 'ok') passed++;
    else {
      failed++;
      byOutcome.set(cell, [...(byOutcome.get(cell) ?? []), feature]);
    }
  }
  for (const [cell, features] of byOutcome) failures.push(`${result.name} / ${features.join(', ')}: ${cell}`);
  if (result.problem) {
    failed++;
    failures.push(`${result.name}: ${result.problem}\n    ${result.output.trim().split('\n').slice(-25).join('\n    ')}`);
  } else passed++;
}
if (failures.length > 0) log(`\nFailures:\n${failures.map((f) => `- ${f}`).join('\n')}`);
log(`\n${results.length} runners x ${FEATURES.length} features (and each runner's exit) in ${Math.round((Date.now() - started) / 1000)} s`);
rmSync(work, { recursive: true, force: true });
log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
