#!/usr/bin/env node
// `npm run test:ecosystem`: the packed tarball where back-end TypeScript runs.
//
// 1. Lean install: `npm install <tarball> --omit=dev --omit=peer` in an empty folder adds at most 1 MB of runtime
//    dependencies besides oz-sdk itself, and the client runs there.
// 2. Plain install: `npm install <tarball>` in an empty folder; `oz-mock` (node_modules/.bin and npx) starts,
//    answers, and stops on SIGTERM.
// 3. Runtimes (pinned in test/ecosystem/runtimes, from the npm registry): Node 20, 22 and 24, Bun and
//    Deno run test/ecosystem/esm.mjs and cjs.cjs (import and require), each running scenario.mjs's checks in
//    process (`server.fetch`) and over HTTP on loopback (`server.listen()`); workerd (Cloudflare Workers) runs
//    worker.mjs, bundled with esbuild as Wrangler would: the client's checks over HTTP with the Worker's own
//    fetch against a server this script runs in Node (a Worker cannot listen on a socket). Beside it,
//    worker-embedded.mjs runs the checks in process inside the Worker: createOzServer() there, the client calling
//    it through `server.fetch` (its validators are generated ahead of time: nothing needs `new Function`, which
//    Workers forbid).
//
// Prints a table of what passed; exits 1 on any failure. Linux x64 (the runtimes' builds).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from '../test/apps/appKit.mjs';
import { CHECKS } from '../test/ecosystem/scenario.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const suite = join(root, 'test/ecosystem');
const runtimes = join(suite, 'runtimes');
const LEAN_LIMIT_BYTES = 1_000_000;
const work = mkdtempSync(join(tmpdir(), 'oz-ecosystem-'));
const failures = [];
const log = (line) => console.log(line);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

function fail(what, detail) {
  failures.push(`${what}: ${detail}`);
  log(`  FAIL ${what}: ${detail}`);
}

/** Apparent size of every file under `dir` (symlinks not followed). */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

function installInEmptyFolder(name, tarball, flags) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `oz-${name}`, private: true, version: '0.0.0' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...flags, tarball], dir);
  return dir;
}

/** Runs a command with a time limit; answers its exit code and output. */
function runFor(cmd, args, { cwd, timeoutMs = 120_000, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: String(error) });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

/** The checks of one report leg that did not pass (all of CHECKS must be there and `ok`). */
function failedChecks(leg) {
  return CHECKS.filter((name) => leg?.[name] !== 'ok').map((name) => `${name}: ${leg?.[name] ?? 'not run'}`);
}

// ---------------------------------------------------------------------------------------------------------------
log(`== ecosystem test in ${work}`);
if (!existsSync(join(root, 'dist/index.js'))) run('npm', ['run', 'build'], root);
const tarball = join(work, run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], root).trim().split('\n').pop());

log('== lean install (npm install --omit=dev --omit=peer)');
const lean = installInEmptyFolder('lean', tarball, ['--omit=dev', '--omit=peer']);
const modules = join(lean, 'node_modules');
const total = bytesUnder(modules);
const own = bytesUnder(join(modules, 'oz-sdk'));
const packages = readdirSync(modules)
  .filter((name) => !name.startsWith('.') && name !== 'oz-sdk')
  .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name]));
log(`  dependencies: ${packages.join(', ')}`);
log(`  ${(total - own).toLocaleString('en')} bytes besides oz-sdk (${own.toLocaleString('en')} bytes); limit ${LEAN_LIMIT_BYTES.toLocaleString('en')}`);
if (total - own > LEAN_LIMIT_BYTES) fail('lean install', `${total - own} bytes of dependencies, more than ${LEAN_LIMIT_BYTES}`);
for (const heavy of ['hono', '@hono/node-server', 'msw', 'ajv']) if (packages.includes(heavy)) fail('lean install', `${heavy} is installed`);
const leanClient = await runFor(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import { Oz } from 'oz-sdk'; import { createOzServer } from 'oz-sdk/testing';
     const server = createOzServer();
     const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
     console.log((await oz.tools.execute('echo', { text: 'lean' })).content);`,
  ],
  { cwd: lean },
);
if (leanClient.stdout.trim() !== 'lean') fail('lean install', `the client did not run: ${leanClient.stdout}${leanClient.stderr}`);

log('== plain install: oz-mock');
const app = installInEmptyFolder('app', tarball, []);
const bin = join(app, 'node_modules/.bin/oz-mock');
const help = await runFor('npx', ['--no-install', 'oz-mock', '--help'], { cwd: app, timeoutMs: 60_000 });
if (help.code !== 0 || !help.stdout.includes('Usage: oz-mock')) fail('npx oz-mock --help', `exit ${help.code}: ${help.stdout}${help.stderr}`);
{
  // The bin itself (not npx, whose child would keep the port after a kill).
  const child = spawn(bin, ['--port', '0', '--json'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  try {
    const line = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no JSON line within 30 s: ${out}${err}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.split('\n')[0]);
        }
      });
    });
    const started = JSON.parse(line);
    const health = await fetch(`${started.url}/health`).then((r) => r.json());
    const tools = await fetch(`${started.url}/v1/tools`, { headers: { authorization: `Bearer ${started.apiKey}` } });
    if (health.status !== 'ok' || tools.status !== 200) fail('oz-mock', `health ${JSON.stringify(health)}, /v1/tools ${tools.status}`);
    else log(`  oz-mock served ${started.url} (health ok, /v1/tools 200)`);
  } catch (error) {
    fail('oz-mock', error.message);
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) fail('oz-mock', `exit ${code} after SIGTERM`);
}

log('== runtimes (npm ci in test/ecosystem/runtimes)');
run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], runtimes);
for (const file of ['scenario.mjs', 'esm.mjs', 'cjs.cjs', 'worker.mjs', 'worker-embedded.mjs']) copyFileSync(join(suite, file), join(app, file));
const bins = join(runtimes, 'node_modules');
const version = (cmd, args) => run(cmd, args, app).trim().split('\n')[0];
const table = [];

/** Runs one entry file on a runtime and records its legs. */
async function entry(runtime, label, cmd, args, legs) {
  const result = await runFor(cmd, args, { cwd: app });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  let report;
  try {
    report = JSON.parse(line);
  } catch {
    fail(`${runtime} ${label}`, `exit ${result.code}, no report: ${result.stdout.slice(-500)}${result.stderr.slice(-2000)}`);
    return false;
  }
  let ok = true;
  for (const leg of legs) {
    const failed = failedChecks(report[leg]);
    if (failed.length > 0) {
      ok = false;
      fail(`${runtime} ${label} ${leg}`, failed.join('; '));
    }
  }
  if (result.code !== 0) {
    ok = false;
    fail(`${runtime} ${label}`, `exit ${result.code}: ${result.stderr.slice(-1000)}`);
  }
  return ok;
}

const mark = (ok) => (ok ? 'yes' : 'FAILED');
// Pinned, whatever Node runs this script (the lowest `engines` allows, and the two current lines).
const nodes = ['node20', 'node22', 'node24'].map((alias) => {
  const node = join(bins, alias, 'bin/node');
  return [`Node ${version(node, ['--version']).slice(1)}`, node];
});
for (const [name, node] of nodes) {
  log(`  ${name}`);
  const esm = await entry(name, 'esm', node, ['esm.mjs'], ['inProcess', 'http']);
  const cjs = await entry(name, 'cjs', node, ['cjs.cjs'], ['inProcess', 'http']);
  table.push([name, mark(esm), mark(cjs), mark(esm && cjs), mark(esm && cjs)]);
}
{
  const bun = join(bins, '@oven/bun-linux-x64/bin/bun');
  const name = `Bun ${version(bun, ['--version'])}`;
  log(`  ${name}`);
  const esm = await entry(name, 'esm', bun, ['esm.mjs'], ['inProcess', 'http']);
  const cjs = await entry(name, 'cjs', bun, ['cjs.cjs'], ['inProcess', 'http']);
  table.push([name, mark(esm), mark(cjs), mark(esm && cjs), mark(esm && cjs)]);
}
{
  const deno = join(bins, '@deno/linux-x64-glibc/deno');
  const name = `Deno ${version(deno, ['--version']).split(' ')[1]}`;
  log(`  ${name}`);
  const esm = await entry(name, 'esm', deno, ['run', '-A', 'esm.mjs'], ['inProcess', 'http']);
  const cjs = await entry(name, 'cjs', deno, ['run', '-A', 'cjs.cjs'], ['inProcess', 'http']);
  table.push([name, mark(esm), mark(cjs), mark(esm && cjs), mark(esm && cjs)]);
}
{
  // The workerd binary itself (its npm bin is a Node wrapper whose child would outlive a kill).
  const workerd = join(bins, '@cloudflare/workerd-linux-64/bin/workerd');
  const name = `workerd ${version(workerd, ['--version']).split(' ')[1]} (Cloudflare Workers)`;
  log(`  ${name}`);
  for (const file of ['worker', 'worker-embedded']) {
    execFileSync(
      join(root, 'node_modules/.bin/esbuild'),
      [`${file}.mjs`, '--bundle', '--format=esm', '--platform=node', '--target=es2022', `--outfile=${file}.bundle.mjs`, '--log-level=warning'],
      {
        cwd: app,
        stdio: 'inherit',
      },
    );
  }
  // The server of the HTTP leg, from the installed package, with a control plane for its faults and journal.
  const { createOzServer } = await import(join(app, 'node_modules/oz-sdk/dist/testing/index.js'));
  const host = createOzServer();
  const listener = await host.listen({ port: 0, mcpPort: 0 });
  const control = createHttpServer(async (req, res) => {
    const url = new URL(req.url, 'http://control');
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method === 'POST' && url.pathname === '/faults') host.faults.add(JSON.parse(body));
    res.end(url.pathname === '/count' ? String(host.journal.count(url.searchParams.get('operationId'))) : 'ok');
  });
  await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlURL = `http://127.0.0.1:${control.address().port}`;
  // workerd's two sockets, picked once the Node servers above listen (none of them can take one) and distinct
  // (two picks in a row may return the same port: this failed a CI run with "Address already in use").
  const [port, embeddedPort] = await freePorts(2);
  writeFileSync(
    join(app, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "embedded", worker = .embedded),
    # The Worker's fetch may reach loopback (the host's server); workerd allows public addresses only by default.
    (name = "internet", network = (allow = ["public", "local"])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:${port}", http = (), service = "main"),
    (name = "embedded", address = "127.0.0.1:${embeddedPort}", http = (), service = "embedded"),
  ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.bundle.mjs") ],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
);
const embedded :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker-embedded.bundle.mjs") ],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
);
`,
  );
  const child = spawn(workerd, ['serve', 'workerd.capnp'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  /** The body of a Worker's answer, once workerd listens. */
  const ask = async (url) => {
    for (let tries = 0; ; tries++) {
      try {
        return await fetch(url, { signal: AbortSignal.timeout(120_000) }).then((r) => r.text());
      } catch (error) {
        if (tries > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  let ok = false;
  let inProcess = 'FAILED';
  try {
    const query = new URLSearchParams({ base: listener.url, key: host.apiKey, control: controlURL });
    const body = await ask(`http://127.0.0.1:${port}/?${query}`);
    let report;
    try {
      report = JSON.parse(body);
    } catch {
      throw new Error(`no report: ${body.slice(0, 2000)}`);
    }
    const failed = failedChecks(report.http);
    if (failed.length > 0) fail(`${name} esm http`, failed.join('; '));
    ok = failed.length === 0;
    const embeddedBody = await ask(`http://127.0.0.1:${embeddedPort}/`);
    let embedded;
    try {
      embedded = JSON.parse(embeddedBody);
    } catch {
      throw new Error(`embedded server: no report: ${embeddedBody.slice(0, 2000)}`);
    }
    const embeddedFailed = failedChecks(embedded.inProcess);
    if (embeddedFailed.length > 0) fail(`${name} esm inProcess`, embeddedFailed.join('; '));
    else inProcess = 'yes (`server.fetch` inside the Worker)';
  } catch (error) {
    fail(name, `${error.message} ${err.slice(-2000)}`);
  } finally {
    child.kill('SIGKILL');
    control.close();
    await listener.close();
    await host.close();
  }
  table.push([name, mark(ok), 'no CommonJS in Workers', inProcess, `${mark(ok)} (its fetch; the server in Node)`]);
}

log('\n| runtime | ESM import | CJS require | in-process server | over HTTP (loopback) |');
log('| --- | --- | --- | --- | --- |');
for (const row of table) log(`| ${row.join(' | ')} |`);
log(`\nEach "yes" ran every check: ${CHECKS.join(', ')}.`);

rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
log('\necosystem ok');
