// The type-check matrix: the packed package (env OZ_TARBALL, an absolute path) installed in a temporary folder with
// @types/node 20 and no msw, and a consumer file importing every subpath (`oz-sdk`, `/funcs`, `/mcp`, `/testing`)
// type-checked by each TypeScript a user may have (5.0, 5.4, the newest 5.x, 6.x, 7.x: pinned in this folder's
// package.json) under each module resolution (node10; node16 and nodenext, ESM and CommonJS; bundler), with and
// without the DOM library, with `strict`, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`,
// `verbatimModuleSyntax` on and `skipLibCheck: false`. Two compilers run at a time. Prints a table; exits 1 when a
// cell fails (its errors printed above the table).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = process.env.OZ_TARBALL;
if (!tarball || !isAbsolute(tarball) || !existsSync(tarball)) {
  console.error('test/apps/types: set OZ_TARBALL to the absolute path of the packed oz-sdk tarball (npm pack).');
  process.exit(2);
}

const COMPILERS = ['5.0', '5.4', '5.9', '6', '7'];
const libs = (dom) => (dom ? ['es2023', 'dom', 'dom.iterable'] : ['es2023']);

// A consumer's ES module: every subpath's values and a few public types, used.
const ESM = `import { Oz, OzAPIError, OzUsageError, signIn, type Item, type ExecutionResult, type SignInResult } from 'oz-sdk';
import { OzCore, toolsExecute } from 'oz-sdk/funcs';
import { McpClient, OzMcpError, type McpFormat } from 'oz-sdk/mcp';
import { createOzServer, type OzServer, type FaultSpec } from 'oz-sdk/testing';
${body('export ')}`;
// The same consumer as a CommonJS module (what \`verbatimModuleSyntax\` asks of one: \`import x = require()\`).
const CJS = `import sdk = require('oz-sdk');
import funcs = require('oz-sdk/funcs');
import mcp = require('oz-sdk/mcp');
import testing = require('oz-sdk/testing');
import type { Item, ExecutionResult, SignInResult } from 'oz-sdk';
import type { McpFormat } from 'oz-sdk/mcp';
import type { OzServer, FaultSpec } from 'oz-sdk/testing';
const { Oz, OzAPIError, OzUsageError, signIn } = sdk;
const { OzCore, toolsExecute } = funcs;
const { McpClient, OzMcpError } = mcp;
const { createOzServer } = testing;
${body('')}
export = use;
`;

/** The consumer's code; `exported` is `export ` in an ES module (a CommonJS one ends with `export =`). */
function body(exported) {
  return `const server: OzServer = createOzServer();
const fault: FaultSpec = { operationId: 'executeTool', type: 'error', status: 503, code: 'upstream_error' };
server.faults.add(fault);
const client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
const core = new OzCore({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
const format: McpFormat = 'json';
${exported}async function use(): Promise<[Item, ExecutionResult, string, SignInResult | Error, unknown]> {
  const item: Item = await client.companies.items.create('acme', { building: 'hq', title: 'typed' });
  const result: ExecutionResult = await client.tools.execute('echo', { params: { text: 'x' } });
  const text: string = await toolsExecute(core, 'echo', { text: 'x' }, { format: 'text' });
  const signedIn = await signIn({ dashboardURL: server.url }).catch((error: unknown) => (error instanceof OzUsageError || error instanceof OzAPIError ? error : new Error(String(error))));
  const failure: unknown = [McpClient.name, OzMcpError.name, format];
  // @ts-expect-error: title is required
  await client.companies.items.create('acme', { building: 'hq' });
  return [item, result, text, signedIn, failure];
}
`;
}

// Each resolution: its module setting and the consumer files it checks, in one compiler run (node16 and nodenext
// check an ES module, `.mts`, and a CommonJS one, `.cts`, side by side: each file resolves in its own mode).
const FILES = { 'node10.ts': CJS, 'consumer.mts': ESM, 'consumer.cts': CJS, 'bundler.ts': ESM };
const RESOLUTIONS = [
  { name: 'node10', module: 'commonjs', moduleResolution: 'node10', files: ['node10.ts'] },
  { name: 'node16 ESM+CJS', module: 'node16', moduleResolution: 'node16', files: ['consumer.mts', 'consumer.cts'] },
  { name: 'nodenext ESM+CJS', module: 'nodenext', moduleResolution: 'nodenext', files: ['consumer.mts', 'consumer.cts'] },
  { name: 'bundler', module: 'esnext', moduleResolution: 'bundler', files: ['bundler.ts'] },
];

/** Whether a compiler has the resolution at all: TypeScript 7 dropped node10 (6.x deprecates it). */
const applies = (ts, resolution) => !(ts === '7' && resolution.moduleResolution === 'node10');

function install(dir) {
  if (!existsSync(join(here, 'node_modules/typescript-7')))
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: here, stdio: 'inherit' });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'oz-types-consumer', private: true, version: '0.0.0' }));
  // No msw: an optional peer of oz-sdk/testing, whose declarations must type-check without it.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, '@types/node@20.19.43'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function project(dir, ts, resolution, dom) {
  const name = `tsconfig.${ts}.${resolution.name.replace(/\W+/g, '-')}.${dom ? 'dom' : 'nodom'}.json`;
  const compilerOptions = {
    target: 'es2022',
    module: resolution.module,
    moduleResolution: resolution.moduleResolution,
    lib: libs(dom),
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    noEmit: true,
    // node10 is deprecated in 6.x (an error unless acknowledged); a project that still uses it says so.
    ...(ts === '6' && resolution.moduleResolution === 'node10' ? { ignoreDeprecations: '6.0' } : {}),
  };
  writeFileSync(join(dir, name), JSON.stringify({ compilerOptions, files: resolution.files }, null, 2));
  return name;
}

function typeCheck(dir, ts, config) {
  const tsc = join(here, `node_modules/typescript-${ts}/bin/tsc`);
  const started = performance.now();
  return new Promise((done) =>
    execFile(process.execPath, [tsc, '-p', config], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ ok: error === null, output: `${stdout}${stderr}`.trim(), seconds: (performance.now() - started) / 1000 }),
    ),
  );
}

/** Runs `jobs` two at a time (the machine's cores are shared). */
async function twoAtATime(jobs) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

const dir = mkdtempSync(join(tmpdir(), 'oz-app-types-'));
try {
  const started = performance.now();
  install(dir);
  for (const [file, source] of Object.entries(FILES)) writeFileSync(join(dir, file), source);
  const cells = COMPILERS.flatMap((ts) => RESOLUTIONS.flatMap((resolution) => [false, true].map((dom) => ({ ts, resolution, dom }))));
  const results = await twoAtATime(
    cells.map(
      (cell) => () =>
        applies(cell.ts, cell.resolution) ? typeCheck(dir, cell.ts, project(dir, cell.ts, cell.resolution, cell.dom)) : Promise.resolve(undefined),
    ),
  );
  const cell = (ts, resolution, dom) => results[cells.findIndex((c) => c.ts === ts && c.resolution === resolution && c.dom === dom)];
  for (const [i, result] of results.entries()) {
    if (result && !result.ok)
      console.error(`\n--- TypeScript ${cells[i].ts}, ${cells[i].resolution.name}, ${cells[i].dom ? 'DOM' : 'no DOM'}:\n${result.output}`);
  }
  const mark = (result) => (result === undefined ? 'n/a' : result.ok ? 'ok' : 'FAIL');
  const rows = COMPILERS.map((ts) => {
    const version = execFileSync(process.execPath, [join(here, `node_modules/typescript-${ts}/bin/tsc`), '--version'], { encoding: 'utf8' })
      .trim()
      .replace('Version ', '');
    return [version, ...RESOLUTIONS.map((r) => `${mark(cell(ts, r, false))} / ${mark(cell(ts, r, true))}`)];
  });
  const header = ['TypeScript', ...RESOLUTIONS.map((r) => r.name)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\ntypes: each cell is "no DOM / DOM" (lib es2023 / es2023 + dom), strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax, skipLibCheck false`,
  );
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
  const checked = results.filter(Boolean);
  const failed = checked.filter((r) => !r.ok).length;
  console.log(
    `${checked.length} type-checks, ${failed} failed, ${((performance.now() - started) / 1000).toFixed(1)} s (${checked.reduce((s, r) => s + r.seconds, 0).toFixed(1)} s of compiler time, two at a time)`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
